import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BotSettingsSchema } from './bot-settings';

const prefix = BotSettingsSchema.shape.commandPrefix;

/** The message a prefix is refused with, or null when it is accepted. */
function refusal(value: string): string | null {
  const parsed = prefix.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? '');
}

test('a command prefix is what a member can type at the start of a message', () => {
  for (const value of ['!', '?', '$$', '>>', 'bot.', 'é', '¿', '🎉', '❤️', '#️⃣', '👍🏽', '👁‍🗨', ' ! ']) {
    assert.equal(refusal(value), null, JSON.stringify(value));
  }
  assert.equal(prefix.parse(' ! '), '!', 'spaces around it are trimmed');
});

test('control characters, whitespace, invisible characters and unpaired surrogates are refused, saying what is wrong', () => {
  const untypable = /^must only hold characters a member can type in a message \(no control or invisible characters\)$/;
  for (const value of [
    'a\u0000',
    '\u0000',
    '!\u0007',
    '!\u007f',
    '!\u0085', // control characters (C0, DEL, C1)
    '!\u200b',
    '\u200b!',
    '!\u2060',
    '!\u00ad',
    '!\u200e',
    '!\u202e',
    '\u3164',
    '!\u115f',
    '!\u034f', // zero-width, bidi, fillers
    '!\ufe0f',
    '\u200d!',
    '!\u200d',
    'a\u200db', // a variation selector or joiner outside an emoji
    '!\ud800',
    '\udc00!', // unpaired surrogates
    '!\ue000',
    '!\u{10ffff}',
    '!\u0378', // private use, noncharacter, unassigned
  ]) {
    assert.match(refusal(value) ?? 'accepted', untypable, JSON.stringify(value));
  }
  for (const value of ['a b', '!\nx', 'a\tb', '!\u00a0x', '!\u2028x', '!\u3000x']) {
    assert.equal(refusal(value), 'must not contain spaces or line breaks', JSON.stringify(value));
  }
  for (const value of ['', '   ', '\n', '\t\r\n', '\u00a0', '\ufeff', '\u3000']) {
    assert.equal(refusal(value), 'is required', JSON.stringify(value));
  }
  assert.equal(refusal('!!!!!!'), 'must be at most 5 characters');
});
