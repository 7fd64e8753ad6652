import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../core/clock';
import { CommandLimiter } from './limiter';

test('a member gets perMinute commands a minute, then is told when to try again; others are not affected', () => {
  const clock = new ManualClock(0);
  const limiter = new CommandLimiter(clock);
  for (let i = 0; i < 3; i += 1) {
    assert.equal(limiter.take('g', 'a', 3), 0);
    clock.advance(10_000);
  }
  assert.equal(limiter.take('g', 'a', 3), 30, 'the first use leaves the window 30 s from now');
  assert.equal(limiter.take('g', 'b', 3), 0);
  assert.equal(limiter.take('other-guild', 'a', 3), 0);
  clock.advance(30_000);
  assert.equal(limiter.take('g', 'a', 3), 0);
});
