import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APPEAL_MESSAGES, APPEAL_RETRY_MS } from '../../shared/appeals';
import { acceptedReason, appealBlock } from './appeals';

const NOW = Date.UTC(2026, 10, 26);
const open = { appealsEnabled: true, banLifted: false };

test('a member may appeal a ban in force with no appeal yet, and not when appeals are off or the ban was lifted', () => {
  assert.equal(appealBlock({ ...open, latest: null }, NOW), null);
  assert.deepEqual(appealBlock({ ...open, appealsEnabled: false, latest: null }, NOW), { message: APPEAL_MESSAGES.disabled });
  assert.deepEqual(appealBlock({ ...open, banLifted: true, latest: null }, NOW), { message: APPEAL_MESSAGES.lifted });
});

test('one open appeal per case; an accepted one ends it; a denial waits a week, counted in days rounded up', () => {
  assert.deepEqual(appealBlock({ ...open, latest: { status: 'open', decidedAt: null } }, NOW), { message: APPEAL_MESSAGES.alreadyOpen });
  assert.deepEqual(appealBlock({ ...open, banLifted: true, latest: { status: 'accepted', decidedAt: new Date(NOW) } }, NOW), {
    message: APPEAL_MESSAGES.accepted,
  });
  const denied = (agoMs: number) => ({ ...open, latest: { status: 'denied', decidedAt: new Date(NOW - agoMs) } });
  assert.deepEqual(appealBlock(denied(0), NOW), { message: APPEAL_MESSAGES.tooSoon(7), retryAfterMs: APPEAL_RETRY_MS });
  assert.equal(appealBlock(denied(APPEAL_RETRY_MS - 3_600_000), NOW)?.message, APPEAL_MESSAGES.tooSoon(1));
  assert.equal(appealBlock(denied(APPEAL_RETRY_MS), NOW), null);
});

test("the unban case's reason names the appeal and its case, within Discord's 512 characters", () => {
  assert.equal(acceptedReason({ id: 4, caseNumber: 12 }, 'Apologised'), 'Appeal accepted: Apologised (appeal #4 of case #12)');
  assert.equal(acceptedReason({ id: 4, caseNumber: 12 }, null), 'Appeal accepted: no reason given (appeal #4 of case #12)');
  const long = acceptedReason({ id: 4, caseNumber: 12 }, 'x'.repeat(600));
  assert.equal(long.length, 512);
  assert.ok(long.endsWith('(appeal #4 of case #12)'));
});
