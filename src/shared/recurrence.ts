// Recurring announcements (issue 25, point 8): a rule (daily, weekly on chosen weekdays, monthly on
// a day of the month) at a wall-clock time in an explicit IANA time zone, ending at a date or after
// a count of sends. Pure (Intl only), so the server's scheduler and the dashboard's "next
// occurrences" list compute the same instants.
//
// Why Intl and not a library: the only zone work needed is "what wall clock is this instant in
// zone Z" (Intl.DateTimeFormat.formatToParts, with the tz database the runtime ships and updates)
// and its inverse, which is two offset look-ups; a library (luxon, date-fns-tz) would add 70 KB to
// the dashboard bundle for the same tz data.
import * as z from 'zod';

/** How often an announcement repeats. */
export const RECURRENCE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

/** Sunday first, as Date.getUTCDay numbers them. */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** At most this many sends for a rule with a count. */
export const MAX_RECURRENCE_COUNT = 1000;

/** Whether `name` is an IANA time zone the runtime knows ("Europe/Paris", "UTC"); offsets like "+01:00" are not zones. */
export function isTimeZone(name: string): boolean {
  if (!/^(UTC|[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+)$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A recurrence rule as the routes take it and the store keeps it. */
export const RecurrenceSchema = z
  .object({
    frequency: z.enum(RECURRENCE_FREQUENCIES, { error: 'must be daily, weekly or monthly' }),
    /** The local time of day, 24-hour. */
    time: z.string({ error: 'is required' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day such as 09:00'),
    timeZone: z.string({ error: 'is required' }).refine(isTimeZone, 'must be a time zone such as Europe/Paris'),
    /** Weekly: the days it goes out (0 = Sunday). */
    weekdays: z.array(z.number().int().min(0).max(6), { error: 'must be days of the week' }).max(7).default([]),
    /** Monthly: the day of the month; in a shorter month, its last day. */
    dayOfMonth: z.number({ error: 'must be a day of the month' }).int().min(1, 'must be 1 to 31').max(31, 'must be 1 to 31').nullable().default(null),
    /** The last day (in the rule's zone, inclusive) it may go out. */
    until: z.iso.date({ error: 'must be a date' }).nullable().default(null),
    /** How many times it goes out at most. */
    count: z
      .number({ error: 'must be a number of sends' })
      .int()
      .min(1, 'must be at least 1')
      .max(MAX_RECURRENCE_COUNT, `must be at most ${MAX_RECURRENCE_COUNT}`)
      .nullable()
      .default(null),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.frequency === 'weekly' && rule.weekdays.length === 0) ctx.addIssue({ code: 'custom', path: ['weekdays'], message: 'must have at least one day' });
    if (rule.frequency === 'monthly' && rule.dayOfMonth === null) ctx.addIssue({ code: 'custom', path: ['dayOfMonth'], message: 'pick a day of the month' });
  });
export type RecurrenceInput = z.input<typeof RecurrenceSchema>;
export type Recurrence = z.infer<typeof RecurrenceSchema>;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `timeZone` at instant `ms`. */
export function wallClock(ms: number, timeZone: string): WallClock {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: (parts.hour ?? 0) % 24, minute: parts.minute ?? 0 };
}

const asUtc = (wall: WallClock) => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);

/** How far ahead of UTC the zone's clock is at instant `ms` (whole minutes). */
function offsetAt(ms: number, timeZone: string): number {
  const minute = Math.floor(ms / 60_000) * 60_000;
  return asUtc(wallClock(minute, timeZone)) - minute;
}

/**
 * The instant the zone's clock reads `wall`. A time skipped by a DST change (02:30 on the spring
 * night) is moved forward by the gap (03:30); a time read twice (the autumn night) is the first.
 */
export function zonedInstant(wall: WallClock, timeZone: string): number {
  const naive = asUtc(wall);
  const before = naive - offsetAt(naive - 86_400_000, timeZone);
  const after = naive - offsetAt(naive + 86_400_000, timeZone);
  const valid = [before, after].filter((candidate) => asUtc(wallClock(candidate, timeZone)) === naive);
  if (valid.length > 0) return Math.min(...valid);
  return before;
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether the rule goes out on this calendar day. */
function fallsOn(rule: Recurrence, year: number, month: number, day: number): boolean {
  if (rule.frequency === 'daily') return true;
  if (rule.frequency === 'weekly') return rule.weekdays.includes(new Date(Date.UTC(year, month - 1, day)).getUTCDay());
  return day === Math.min(rule.dayOfMonth ?? 1, daysInMonth(year, month));
}

/** The local calendar day (YYYY-MM-DD) of an instant in the rule's zone. */
export function localDay(ms: number, timeZone: string): string {
  const wall = wallClock(ms, timeZone);
  return `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;
}

/** The rule's first occurrence strictly after `afterMs`, ignoring its end (until, count); null if none within 400 days. */
export function nextOccurrence(rule: Recurrence, afterMs: number): number | null {
  const [hour = 0, minute = 0] = rule.time.split(':').map(Number);
  const start = wallClock(afterMs, rule.timeZone);
  for (let offset = 0; offset <= 400; offset += 1) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + 1;
    const day = date.getUTCDate();
    if (!fallsOn(rule, year, month, day)) continue;
    const at = zonedInstant({ year, month, day, hour, minute }, rule.timeZone);
    if (at > afterMs) return at;
  }
  return null;
}

/** Whether an occurrence at `ms` is within the rule's end, `sent` sends having gone out already. */
export function withinEnd(rule: Recurrence, ms: number, sent: number): boolean {
  if (rule.count !== null && sent >= rule.count) return false;
  return rule.until === null || localDay(ms, rule.timeZone) <= rule.until;
}

/** The next `n` occurrences after `afterMs` that are within the rule's end. */
export function upcomingOccurrences(rule: Recurrence, afterMs: number, n: number, sent = 0): number[] {
  const found: number[] = [];
  let cursor = afterMs;
  while (found.length < n) {
    const next = nextOccurrence(rule, cursor);
    if (next === null || !withinEnd(rule, next, sent + found.length)) break;
    found.push(next);
    cursor = next;
  }
  return found;
}

const list = (words: string[]) => (words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);
const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** The rule in words: "Every Monday and Friday at 09:00 (Europe/Paris), 5 times". */
export function describeRecurrence(rule: Recurrence): string {
  const when =
    rule.frequency === 'daily'
      ? 'Every day'
      : rule.frequency === 'weekly'
        ? `Every ${list([...rule.weekdays].sort((a, b) => a - b).map((day) => WEEKDAY_NAMES[day] ?? ''))}`
        : `Every month on the ${ordinal(rule.dayOfMonth ?? 1)}${(rule.dayOfMonth ?? 1) > 28 ? ' (the last day in shorter months)' : ''}`;
  const ends = [rule.count !== null ? `${rule.count} time${rule.count === 1 ? '' : 's'}` : null, rule.until ? `until ${rule.until}` : null].filter(
    (part): part is string => part !== null,
  );
  return `${when} at ${rule.time} (${rule.timeZone})${ends.length > 0 ? `, ${ends.join(', ')}` : ''}`;
}
