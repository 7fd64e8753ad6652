import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock, systemClock } from './clock';

test('a manual clock stands still and moves only forward, when told', () => {
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  assert.equal(clock.now().toISOString(), '2026-01-01T00:00:00.000Z');
  clock.advance(90_000);
  assert.equal(clock.ms(), Date.parse('2026-01-01T00:01:30Z'));
  clock.set(new Date('2026-01-02T00:00:00Z'));
  assert.equal(clock.now().toISOString(), '2026-01-02T00:00:00.000Z');
  assert.throws(() => clock.advance(-1), RangeError);
  assert.ok(Math.abs(systemClock.ms() - Date.now()) < 1000);
});
