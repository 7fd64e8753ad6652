// The scheduler's decision for a due recurring announcement: on time it sends and moves to the
// next occurrence; after an outage it sends only the latest missed occurrence (if under an hour
// old) and counts the skipped ones; a count or a last day ends the rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RecurrenceSchema } from '../../shared/recurrence';
import { passNote, planRecurringSend } from './recurring';

const HOUR = 3_600_000;
const daily = (extra: Record<string, unknown> = {}) => RecurrenceSchema.parse({ frequency: 'daily', time: '09:00', timeZone: 'UTC', ...extra });
const nineOn = (day: number) => Date.UTC(2026, 10, day, 9);
const iso = (at: Date | null) => at?.toISOString() ?? null;

describe('planRecurringSend', () => {
  test('on time: sends, not late, next is tomorrow', () => {
    const plan = planRecurringSend(daily(), nineOn(5), nineOn(5) + 5_000, 0);
    assert.deepEqual({ ...plan, next: iso(plan.next) }, { send: true, late: false, skipped: 0, next: '2026-11-06T09:00:00.000Z' });
    assert.equal(passNote(plan, null), null);
  });

  test('after a three-day outage: the latest missed one goes out once (late), the two before are skipped', () => {
    const plan = planRecurringSend(daily(), nineOn(5), nineOn(7) + 20 * 60_000, 0);
    assert.deepEqual({ ...plan, next: iso(plan.next) }, { send: true, late: true, skipped: 2, next: '2026-11-08T09:00:00.000Z' });
    assert.equal(passNote(plan, null), '2 sends were skipped while the bot was offline.');
  });

  test('the latest missed one over an hour old is skipped too', () => {
    const plan = planRecurringSend(daily(), nineOn(5), nineOn(5) + 2 * HOUR, 0);
    assert.deepEqual({ ...plan, next: iso(plan.next) }, { send: false, late: false, skipped: 1, next: '2026-11-06T09:00:00.000Z' });
  });

  test('a count ends it after the last send; a last day ends it too', () => {
    const last = planRecurringSend(daily({ count: 2 }), nineOn(6), nineOn(6), 1);
    assert.equal(last.send, true);
    assert.equal(last.next, null, 'the second of two sends: nothing next');
    const untilSixth = planRecurringSend(daily({ until: '2026-11-06' }), nineOn(6), nineOn(6), 3);
    assert.equal(untilSixth.send, true);
    assert.equal(untilSixth.next, null);
    assert.match(passNote(untilSixth, 'That channel no longer exists.') ?? '', /^The last send failed: That channel no longer exists\.$/);
  });
});
