// A field's problem becomes a sentence naming the field in words; a problem written as a sentence
// already is kept as it was written (a lowercase user name may start it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldSentence } from './field-words';

test('a short problem is said of the field in words; a whole sentence is kept; numbers get separators', () => {
  assert.equal(fieldSentence('name', 'is required', { name: 'Item name' }), 'Item name is required.');
  assert.equal(fieldSentence('userId', 'drifter is not a member of this server.'), 'drifter is not a member of this server.');
  assert.equal(
    fieldSentence('stationId', 'is not a station saved in this server. Pick one of its stations.', { stationId: 'Radio station' }),
    'Radio station is not a station saved in this server. Pick one of its stations.',
  );
  assert.equal(fieldSentence('xpCooldown', 'must be at most 86400'), 'XP cooldown must be at most 86,400.');
  const nested = fieldSentence('serverSettings.rateLimitPerMinute', 'must be at least 1');
  assert.doesNotMatch(nested, /serverSettings|rateLimitPerMinute/);
  assert.match(nested, /^Rate limit .*must be at least 1\.$/);
});
