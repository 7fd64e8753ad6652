import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiscordRefused, DomainError, InvalidInput, summarizeFields } from './errors';

test('InvalidInput names each field in its message', () => {
  const error = new InvalidInput({ xpCooldown: 'must be at most 86400', textMultiplier: 'must be a number' });
  assert.equal(error.message, 'xpCooldown must be at most 86400; textMultiplier must be a number');
  assert.ok(error instanceof DomainError);
  assert.deepEqual(InvalidInput.field('welcomeChannelId', 'is required').fields, { welcomeChannelId: 'is required' });
  assert.equal(InvalidInput.field('a', 'b', 'Custom.').message, 'Custom.');
  assert.equal(summarizeFields({}), 'The input is invalid.');
});

test('DiscordRefused keeps the code and the sentence for the admin', () => {
  const error = new DiscordRefused(50013, "AwesomeBot's highest role is below Senior Staff.");
  assert.equal(error.code, 50013);
  assert.match(error.message, /Senior Staff/);
});
