// The caps rule on its own: the share of capitals among letters, with its limits at their edges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isShouting } from './caps';

/** `upper` capitals then small letters up to `letters`. */
const shout = (upper: number, letters: number) => `${'A'.repeat(upper)}${'a'.repeat(letters - upper)}`;

test('a limit of N % allows exactly N % of capitals and acts on anything above', () => {
  for (const limit of [50, 70, 99]) {
    assert.equal(isShouting(shout(limit, 100), 5, limit), false, `${limit} % allowed`);
    assert.equal(isShouting(shout(limit + 1, 100), 5, limit), true, `${limit + 1} % acted on`);
  }
  assert.equal(isShouting(shout(100, 100), 5, 100), false, 'a limit of 100 % allows anything');
});

test('the fewest letters counts letters, not characters: one short of it is not judged', () => {
  assert.equal(isShouting('ABCDEFGHIJ', 10, 70), true);
  assert.equal(isShouting('ABCDEFGHI', 10, 70), false);
  assert.equal(isShouting('ABC DEF GHI!!!', 10, 70), false, '9 letters among 14 characters');
  assert.equal(isShouting('1234567890ABC', 5, 70), false, 'digits are no letters: 3 letters');
});

test('mentions, custom emojis, timestamps, @everyone and http(s) links are not text', () => {
  assert.equal(isShouting('hi <:KEKWKEKWKEKWKEKW:123456789> ok', 5, 70), false);
  assert.equal(isShouting('<a:DANCEDANCE:1> <@&123> <#456> <t:1700000000:R> @everyone @here', 5, 70), false);
  assert.equal(isShouting('ok HTTPS://EXAMPLE.COM/ABCDEFGHIJKL', 5, 70), false);
  // The same words as plain text are letters.
  assert.equal(isShouting('KEKWKEKWKEKWKEKW ok', 5, 70), true);
  // A link's lowercase path does not dilute the shouting around it.
  assert.equal(isShouting('THIS IS GREAT https://example.com/lowercase/path', 10, 70), true);
});

test('letters of every script count, astral ones too; letters without case count as small', () => {
  assert.equal(isShouting('ПРИВЕТ ВСЕМ', 10, 70), true);
  assert.equal(isShouting('привет всем', 10, 70), false);
  assert.equal(isShouting('𝐇𝐄𝐋𝐋𝐎 𝐓𝐇𝐄𝐑𝐄', 10, 70), true);
  assert.equal(isShouting('これはテストです OK', 5, 70), false);
});
