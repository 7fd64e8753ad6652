import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiscordRefused, DomainError, InvalidInput, summarizeFields } from './errors';

test('InvalidInput names each field in words in its message, a sentence each', () => {
  const error = new InvalidInput({ xpCooldown: 'must be at most 86400', textMultiplier: 'must be a number' });
  assert.equal(error.message, 'XP cooldown must be at most 86,400. Text multiplier must be a number.');
  assert.ok(error instanceof DomainError);
  assert.deepEqual(InvalidInput.field('welcomeChannelId', 'is required').fields, { welcomeChannelId: 'Welcome channel is required.' });
  assert.equal(InvalidInput.field('a', 'b', 'Custom.').message, 'Custom.');
  assert.equal(summarizeFields({}), 'The input is invalid.');
});

test('a field path reads as words: ids by what they name, servers for guilds, list items by number; sentences stay as they are', () => {
  const cases: [Record<string, string>, string][] = [
    [{ commandPrefix: 'must not contain spaces or line breaks' }, 'Command prefix must not contain spaces or line breaks.'],
    [{ welcomeChannelId: 'is not a channel of this server' }, 'Welcome channel is not a channel of this server.'],
    [{ guildId: 'must be a Discord id (15 to 21 digits)' }, 'Server must be a Discord id (15 to 21 digits).'],
    [{ id: 'is required' }, 'ID is required.'],
    [{ user_id: 'is required' }, 'User is required.'],
    [{ webhookUrl: 'must be an http(s) URL', apiKey: 'is required' }, 'Webhook URL must be an http(s) URL. API key is required.'],
    [{ 'serverSettings.xpCooldown': 'must be between 0 and 86400' }, 'XP cooldown must be between 0 and 86,400.'],
    [{ 'escalation.0.warnings': 'has another step at 3 warnings' }, 'Escalation #1: warnings has another step at 3 warnings.'],
    [{ body: 'must be an object' }, 'The request body must be an object.'],
    [{ welcomeChannelId: 'Pick the welcome channel first.' }, 'Pick the welcome channel first.'],
    [{ roleId: 'AwesomeBot cannot give @VIP. Move its role above it' }, 'AwesomeBot cannot give @VIP. Move its role above it.'],
    [{ emoji: ':x: is not an emoji of this server' }, 'Emoji :x: is not an emoji of this server.'],
  ];
  for (const [fields, message] of cases) assert.equal(summarizeFields(fields), message, JSON.stringify(fields));
});

test('DiscordRefused keeps the code and the sentence for the admin', () => {
  const error = new DiscordRefused(50013, "AwesomeBot's highest role is below Senior Staff.");
  assert.equal(error.code, 50013);
  assert.match(error.message, /Senior Staff/);
});
