// The renewal rule of timeouts longer than Discord's 28 days: when the bot renews, and for how long.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DURATION_KEYS, DURATION_LABELS, DURATIONS, EscalationStepSchema, ModerationActionInput } from '../../shared/moderation';
import { DISCORD_MAX_TIMEOUT_MS, discordTimeoutEnd } from './case-duration';
import { COVERED_SLACK_MS, planRenewal, RECHECK_MS, RENEW_BEFORE_MS } from './long-timeouts';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 2, 12);

describe('planRenewal', () => {
  test('a 90-day timeout is applied in Discord for 28 days, and the rest later', () => {
    assert.equal(DISCORD_MAX_TIMEOUT_MS, 28 * DAY);
    assert.equal(discordTimeoutEnd(now, now + DURATIONS['90d']), now + 28 * DAY);
    assert.equal(discordTimeoutEnd(now, now + DURATIONS['1h']), now + DURATIONS['1h']);
  });

  test('waits while more than a day of Discord’s timeout is left, and looks again a day before it ends', () => {
    const plan = planRenewal(now, now + 90 * DAY, now + 28 * DAY);
    assert.deepEqual(plan, { kind: 'wait', nextCheck: now + 27 * DAY });
  });

  test('renews for 28 more days when less than a day is left and the expiry is further', () => {
    const plan = planRenewal(now, now + 62 * DAY, now + RENEW_BEFORE_MS - 1);
    assert.deepEqual(plan, { kind: 'renew', until: now + 28 * DAY, nextCheck: now + 27 * DAY });
  });

  test('the last renewal ends at the expiry, not 28 days on', () => {
    const plan = planRenewal(now, now + 3 * DAY, now + DAY / 2);
    assert.deepEqual(plan, { kind: 'renew', until: now + 3 * DAY, nextCheck: now + 2 * DAY });
  });

  test('a timeout Discord let run out (the bot was down) is re-applied at once', () => {
    assert.deepEqual(planRenewal(now, now + 10 * DAY, now - 5 * DAY), { kind: 'renew', until: now + 10 * DAY, nextCheck: now + 9 * DAY });
    assert.deepEqual(planRenewal(now, now + 2 * 3_600_000, null), { kind: 'renew', until: now + 2 * 3_600_000, nextCheck: now + RECHECK_MS });
  });

  test('a timeout Discord holds to its expiry is not renewed (a moment of difference included), only looked at again', () => {
    assert.deepEqual(planRenewal(now, now + 3_600_000, now + 3_600_000), { kind: 'wait', nextCheck: now + RECHECK_MS });
    assert.deepEqual(planRenewal(now, now + 20 * DAY, now + 20 * DAY - COVERED_SLACK_MS), { kind: 'wait', nextCheck: now + 19 * DAY - COVERED_SLACK_MS });
  });

  test('an expired case has ended: no renewal, whatever Discord holds', () => {
    assert.deepEqual(planRenewal(now, now, null), { kind: 'ended' });
    assert.deepEqual(planRenewal(now, now - 1, now + DAY), { kind: 'ended' });
  });

  test('an expiry moved later after the fact is followed (read on every pass)', () => {
    // Discord's 7 days end tomorrow; the case now runs 30 more days.
    assert.deepEqual(planRenewal(now, now + 30 * DAY, now + DAY - 1), { kind: 'renew', until: now + 28 * DAY, nextCheck: now + 27 * DAY });
  });
});

describe('the longer durations', () => {
  test('every face takes them: the action, a ladder step, an auto moderation timeout; the slash command keeps within 25 choices', () => {
    assert.ok(DURATION_KEYS.length <= 25);
    for (const duration of ['2w', '30d', '90d', '1y'] as const) {
      assert.ok(DURATION_LABELS[duration]);
      assert.equal(ModerationActionInput.safeParse({ action: 'timeout', targetId: '123456789012345678', reason: 'x', duration }).success, true);
      assert.equal(EscalationStepSchema.safeParse({ warnings: 3, action: 'timeout', duration }).success, true);
    }
    assert.equal(DURATION_LABELS['90d'], '90 days');
  });
});
