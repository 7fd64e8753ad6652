// What the repeats and rate rules remember, on its own: the rings' windows at their edges, the
// text hash, and the cap on members remembered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemberMemory, NO_TEXT, normalisedHash, recordRepeat, recordSent, REPEAT_WINDOW_MS } from './member-memory';

const GUILD = '100000000000000001';

test('normalisedHash: case is already folded; whitespace runs and ends do not count; blank text is none', () => {
  assert.equal(normalisedHash('hello  world'), normalisedHash(' hello\nworld\t'));
  assert.equal(normalisedHash('hello world'), normalisedHash('hello\u00a0world'));
  assert.notEqual(normalisedHash('hello world'), normalisedHash('helloworld'));
  assert.notEqual(normalisedHash('a'), normalisedHash('b'));
  for (const blank of ['', '   ', '\n\t', '\u3000']) assert.equal(normalisedHash(blank), NO_TEXT, JSON.stringify(blank));
  assert.ok(Number.isSafeInteger(normalisedHash('x'.repeat(4000))));
});

test('recordSent: `size` messages inside the window act; the window is open at its far end', () => {
  const track = new MemberMemory().track(GUILD, '1');
  // size 3 within 1000 ms: the third at +999 acts, at +1000 does not.
  assert.equal(recordSent(track, 0, 3, 1000), false);
  assert.equal(recordSent(track, 500, 3, 1000), false);
  assert.equal(recordSent(track, 1000, 3, 1000), false, 'first and third exactly a window apart');
  assert.equal(recordSent(track, 1499, 3, 1000), true, '500, 1000, 1499 are inside one window');
  // A new size starts the ring again.
  assert.equal(recordSent(track, 1500, 2, 1000), false);
  assert.equal(recordSent(track, 1501, 2, 1000), true);
});

test('recordRepeat: a limit of N allows N identical messages and acts on one more, within a minute', () => {
  for (const limit of [1, 3]) {
    const track = new MemberMemory().track(GUILD, '1');
    const hash = normalisedHash('same');
    for (let i = 0; i < limit; i++) assert.equal(recordRepeat(track, hash, i, limit), false, `limit ${limit}: ${i + 1} allowed`);
    assert.equal(recordRepeat(track, hash, limit, limit), true, `limit ${limit}: ${limit + 1} acted on`);
  }
  const track = new MemberMemory().track(GUILD, '2');
  const hash = normalisedHash('slow');
  assert.equal(recordRepeat(track, hash, 0, 1), false);
  assert.equal(recordRepeat(track, hash, REPEAT_WINDOW_MS, 1), false, 'a full minute apart is outside');
  assert.equal(recordRepeat(track, hash, 2 * REPEAT_WINDOW_MS - 1, 1), true, 'just inside');
});

test('recordRepeat: other text starts a new run; no text neither counts nor breaks one', () => {
  const track = new MemberMemory().track(GUILD, '1');
  const a = normalisedHash('a');
  assert.equal(recordRepeat(track, a, 0, 2), false);
  assert.equal(recordRepeat(track, NO_TEXT, 1, 2), false);
  assert.equal(recordRepeat(track, a, 2, 2), false);
  assert.equal(recordRepeat(track, normalisedHash('b'), 3, 2), false);
  assert.equal(recordRepeat(track, a, 4, 2), false, 'the run of a started again');
  assert.equal(recordRepeat(track, a, 5, 2), false);
  assert.equal(recordRepeat(track, a, 6, 2), true);
});

test('MemberMemory: one record per member per guild, capped, active members kept, a forgotten guild freed', () => {
  const memory = new MemberMemory(3);
  const first = memory.track(GUILD, 'a');
  assert.equal(memory.track(GUILD, 'a'), first);
  assert.notEqual(memory.track('other', 'a'), first);
  memory.track(GUILD, 'b');
  assert.equal(memory.size, 3);
  // Full: the hand passes the active records once, then takes the first one not used since.
  memory.track(GUILD, 'a');
  memory.track(GUILD, 'c');
  assert.equal(memory.size, 3);
  assert.equal(memory.track(GUILD, 'a'), first, 'a stayed');
  // The other guild's member, not used since, made room: forgetting that guild frees nothing.
  memory.forgetGuild('other');
  assert.equal(memory.size, 3);
  memory.forgetGuild(GUILD);
  assert.equal(memory.size, 0);
  // A reused record starts clean.
  const reused = memory.track(GUILD, 'd');
  assert.equal(reused.sentCount, 0);
  assert.equal(reused.lastHash, NO_TEXT);
  assert.equal(new MemberMemory(Number.NaN).size, 0);
});
