// The recurrence rules: next occurrences stay at the same local time across DST changes (the
// product's ManualClock gives "now"), a monthly rule on the 31st goes out on the last day of shorter
// months, and until and count end a rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../core/clock';
import { describeRecurrence, isTimeZone, nextOccurrence, RecurrenceSchema, upcomingOccurrences, withinEnd, zonedInstant } from './recurrence';

const rule = (input: Record<string, unknown>) => RecurrenceSchema.parse({ time: '09:00', timeZone: 'Europe/Paris', ...input });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('recurrence', () => {
  test('every day at 09:00 Europe/Paris stays at 09:00 local across the spring and autumn DST changes', () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 27, 12)); // Friday 27 March 2026, 13:00 in Paris (UTC+1)
    const daily = rule({ frequency: 'daily' });
    const [first, second, third] = upcomingOccurrences(daily, clock.ms(), 3);
    assert.deepEqual(
      [iso(first ?? null), iso(second ?? null), iso(third ?? null)],
      [
        '2026-03-28T08:00:00.000Z', // Saturday, still UTC+1
        '2026-03-29T07:00:00.000Z', // Sunday: clocks went forward at 02:00, now UTC+2
        '2026-03-30T07:00:00.000Z',
      ],
    );
    clock.set(Date.UTC(2026, 9, 24, 12));
    assert.equal(iso(nextOccurrence(daily, clock.ms())), '2026-10-25T08:00:00.000Z', 'back to UTC+1 on the autumn Sunday');
  });

  test('a time the spring change skips moves forward by the gap; one the autumn change repeats is the first', () => {
    assert.equal(iso(zonedInstant({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Paris')), '2026-03-29T01:30:00.000Z');
    assert.equal(iso(zonedInstant({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Paris')), '2026-10-25T00:30:00.000Z');
    assert.equal(iso(zonedInstant({ year: 2026, month: 3, day: 8, hour: 9, minute: 0 }, 'America/New_York')), '2026-03-08T13:00:00.000Z');
  });

  test('weekly on chosen weekdays', () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 4, 18)); // Wednesday 4 November 2026
    const weekly = rule({ frequency: 'weekly', weekdays: [1, 5], time: '18:30', timeZone: 'UTC' });
    assert.deepEqual(upcomingOccurrences(weekly, clock.ms(), 3).map(iso), ['2026-11-06T18:30:00.000Z', '2026-11-09T18:30:00.000Z', '2026-11-13T18:30:00.000Z']);
    assert.equal(describeRecurrence(weekly), 'Every Monday and Friday at 18:30 (UTC)');
  });

  test('monthly on the 31st goes out on the last day of shorter months', () => {
    const monthly = rule({ frequency: 'monthly', dayOfMonth: 31, timeZone: 'UTC' });
    const found = upcomingOccurrences(monthly, Date.UTC(2026, 0, 31, 10), 4).map(iso);
    assert.deepEqual(found, ['2026-02-28T09:00:00.000Z', '2026-03-31T09:00:00.000Z', '2026-04-30T09:00:00.000Z', '2026-05-31T09:00:00.000Z']);
    assert.equal(iso(nextOccurrence(monthly, Date.UTC(2028, 1, 1))), '2028-02-29T09:00:00.000Z', 'a leap February');
    assert.match(describeRecurrence(monthly), /on the 31st \(the last day in shorter months\)/);
  });

  test('until (a day in the zone, inclusive) and a count end a rule', () => {
    const start = Date.UTC(2026, 10, 4, 12);
    const untilFriday = rule({ frequency: 'daily', until: '2026-11-06' });
    assert.equal(upcomingOccurrences(untilFriday, start, 10).length, 2, 'Thursday and Friday');
    const twice = rule({ frequency: 'daily', count: 2 });
    assert.equal(upcomingOccurrences(twice, start, 10).length, 2);
    assert.equal(upcomingOccurrences(twice, start, 10, 1).length, 1, 'one already sent');
    assert.equal(withinEnd(twice, start, 2), false);
    assert.equal(describeRecurrence(twice), 'Every day at 09:00 (Europe/Paris), 2 times');
  });

  test('time zones are IANA names; a weekly rule needs days and a monthly one a day', () => {
    assert.equal(isTimeZone('Europe/Paris'), true);
    assert.equal(isTimeZone('UTC'), true);
    assert.equal(isTimeZone('Mars/Olympus'), false);
    assert.equal(isTimeZone('+01:00'), false);
    const bad = RecurrenceSchema.safeParse({ frequency: 'weekly', time: '25:00', timeZone: 'Europe/Nowhere' });
    assert.equal(bad.success, false);
    const paths = bad.error?.issues.map((issue) => issue.path.join('.')).sort();
    assert.deepEqual(paths, ['time', 'timeZone', 'weekdays']);
    const noDays = RecurrenceSchema.safeParse({ frequency: 'weekly', time: '09:00', timeZone: 'UTC' });
    assert.deepEqual(
      noDays.error?.issues.map((issue) => [issue.path.join('.'), issue.message]),
      [['weekdays', 'must have at least one day']],
    );
  });
});
