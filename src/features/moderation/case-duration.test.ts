import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DISCORD_MAX_TIMEOUT_MS, plannedEnd, timeoutRequest } from './case-duration';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

test('a new duration counts from the case’s start; permanent has no end', () => {
  const start = Date.UTC(2026, 0, 1);
  assert.equal(plannedEnd(start, '1w'), start + 7 * DAY);
  assert.equal(plannedEnd(start, '1h'), start + HOUR);
  assert.equal(plannedEnd(start, 'permanent'), null);
});

test('a timeout is applied for what is left, at most 28 days, and lifted when already over', () => {
  const now = Date.UTC(2026, 0, 10);
  assert.deepEqual(timeoutRequest(now + 2 * HOUR, now), { lift: false, until: now + 2 * HOUR });
  assert.deepEqual(timeoutRequest(now + 40 * DAY, now), { lift: false, until: now + DISCORD_MAX_TIMEOUT_MS });
  assert.deepEqual(timeoutRequest(now, now), { lift: true });
  assert.deepEqual(timeoutRequest(now - HOUR, now), { lift: true });
});
