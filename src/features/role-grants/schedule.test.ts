import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROLE_GRANT_GIVE_UP_MS } from '../../shared/role-grants';
import { nextAttemptAt } from './schedule';

const MINUTE = 60_000;
const queued = new Date(Date.UTC(2026, 10, 6, 10));

test('retries wait 1, 2, 5, 15 and 60 minutes after each try Discord did not answer, then give up', () => {
  let now = queued;
  const waits: number[] = [];
  for (let attempts = 1; ; attempts += 1) {
    const next = nextAttemptAt(attempts, queued, now);
    if (!next) break;
    waits.push((next.getTime() - now.getTime()) / MINUTE);
    now = next;
  }
  assert.deepEqual(waits, [1, 2, 5, 15, 60]);
  assert.equal(nextAttemptAt(6, queued, now), null, 'six tries in all');
});

test('a grant queued a day ago is given up at its next failed try, whatever the count', () => {
  assert.ok(nextAttemptAt(1, queued, new Date(queued.getTime() + ROLE_GRANT_GIVE_UP_MS - 1)));
  assert.equal(nextAttemptAt(1, queued, new Date(queued.getTime() + ROLE_GRANT_GIVE_UP_MS)), null);
});
