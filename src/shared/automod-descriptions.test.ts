import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRule } from './automod-descriptions';
import { AUTOMOD_DEFAULTS, type AutomodRules } from './moderation';

const on = <N extends keyof AutomodRules>(name: N, overrides: Partial<AutomodRules[N]> = {}): AutomodRules[N] => ({
  ...AUTOMOD_DEFAULTS[name],
  enabled: true,
  ...overrides,
});

test("a rule's sentence says what it deletes, what else it does, and gives an example, from its current settings", () => {
  assert.equal(
    describeRule('mentions', on('mentions', { maxMentions: 5, action: 'timeout', duration: '10m' })),
    'Deletes messages with more than 5 mentions of members or roles, or any @everyone or @here, and times the author out for 10 minutes. ' +
      'Example: a message pinging 6 members.',
  );
  assert.equal(
    describeRule('mentions', on('mentions', { maxMentions: 1 })),
    'Deletes messages with more than 1 mention of members or roles, or any @everyone or @here. Example: a message pinging 2 members.',
  );
  assert.equal(
    describeRule('invites', on('invites', { action: 'warn' })),
    'Deletes messages with an invite to another Discord server, and warns the author. Example: “join us at discord.gg/abc123”.',
  );
  assert.equal(
    describeRule('repeats', on('repeats', { maxRepeats: 3 })),
    'Allows the same message 3 times in a row within a minute and deletes the next identical one. Example: “hi!” sent 4 times in a row: the last is deleted.',
  );
  assert.match(describeRule('repeats', on('repeats', { maxRepeats: 1 })), /^Allows the same message once in a row/);
  assert.equal(
    describeRule('rate', on('rate', { maxMessages: 5, perSeconds: 10, action: 'timeout', duration: '1h' })),
    'Allows a member 5 messages in 10 seconds and deletes the next one, and times the author out for 1 hour. ' +
      'Example: 6 messages sent within 10 seconds: the last is deleted.',
  );
});

test('lists are named (the first three, then how many more), and the example avoids what the rule allows', () => {
  assert.match(describeRule('links', on('links')), /^Deletes messages with a link to any site\. Example: “look at https:\/\/example\.com\/page”\.$/);
  assert.match(
    describeRule('links', on('links', { allowedDomains: ['example.com', 'github.com'] })),
    /^Deletes messages with a link to a site other than “example\.com” and “github\.com”\. Example: “look at https:\/\/example\.net\/page”\.$/,
  );
  assert.equal(describeRule('words', on('words')), 'Blocks no words yet: add words or phrases to the list to have messages containing them deleted.');
  assert.equal(
    describeRule('words', on('words', { words: ['darn', 'heck', 'drat', 'blast', 'rats'] })),
    'Deletes messages containing “darn”, “heck”, “drat” or 2 others as a whole word. Example: “well, darn then”.',
  );
  assert.equal(describeRule('words', on('words', { words: ['darn'] })), 'Deletes messages containing “darn” as a whole word. Example: “well, darn then”.');
});

test('caps: the example is long enough to be checked; 100 % lets everything through; numbers being typed ask for numbers', () => {
  assert.match(describeRule('caps', on('caps', { maxPercent: 70, minLength: 10 })), /more than 70 % of the letters are capitals\. Example: “WHY IS NOBODY”\.$/);
  assert.match(describeRule('caps', on('caps', { maxPercent: 100 })), /^Lets every message through/);
  assert.equal(describeRule('caps', on('caps', { maxPercent: Number.NaN })), 'Give the numbers above to see what this rule does.');
  assert.equal(describeRule('mentions', on('mentions', { maxMentions: 0 })), 'Give the numbers above to see what this rule does.');
});
