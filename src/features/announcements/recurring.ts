// Recurring announcements in the store and in the scheduler. A recurring announcement is one row
// that stays 'scheduled' with scheduleTime at its next occurrence; after each send the next one is
// computed from the rule (src/shared/recurrence), and the row ends ('sent') when its count or its
// last day is reached.
//
// Sends missed while the bot was down are not all fired at once: the latest missed occurrence is
// sent once (marked late) if it is under LATE_SEND_WINDOW_MS old, as a one-off would be; older ones
// are skipped, and the row says how many were skipped. Discord refusing one send (a deleted
// channel) records the reason and moves on to the next occurrence.
import type { Announcement } from '../../db/models/community';
import { InvalidInput } from '../../core/errors';
import { LATE_SEND_WINDOW_MS } from '../../shared/announcements';
import { nextOccurrence, RecurrenceSchema, upcomingOccurrences, withinEnd, type Recurrence } from '../../shared/recurrence';

/** Sent more than this after its time counts as late. */
export const LATE_AFTER_MS = 60_000;

/** The rule of a recurring row, or null for a one-off (or a stored rule that no longer parses). */
export function ruleOf(row: Pick<Announcement, 'recurrence' | 'timeZone' | 'untilDay' | 'maxSends'>): Recurrence | null {
  if (!row.recurrence) return null;
  try {
    const stored = JSON.parse(row.recurrence) as Record<string, unknown>;
    const parsed = RecurrenceSchema.safeParse({ ...stored, timeZone: row.timeZone, until: row.untilDay, count: row.maxSends });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The columns a rule is stored in. */
export function recurrenceColumns(rule: Recurrence) {
  return {
    recurrence: JSON.stringify({ frequency: rule.frequency, time: rule.time, weekdays: rule.weekdays, dayOfMonth: rule.dayOfMonth }),
    timeZone: rule.timeZone,
    untilDay: rule.until,
    maxSends: rule.count,
  };
}

/** The first send of a new recurring announcement: the rule's next occurrence after now; a rule that ends before it is refused. */
export function firstOccurrence(rule: Recurrence, nowMs: number, sent = 0): Date {
  const [first] = upcomingOccurrences(rule, nowMs, 1, sent);
  if (first === undefined) throw InvalidInput.field('recurrence.until', 'is before the first time it would go out');
  return new Date(first);
}

/** What the scheduler does with a due recurring row. */
export interface RecurringPlan {
  /** Send now (the latest occurrence that is due, if recent enough). */
  send: boolean;
  late: boolean;
  /** Due occurrences that will not be sent. */
  skipped: number;
  /** The next occurrence after this pass, or null when the rule has ended. */
  next: Date | null;
}

/** Decides a due recurring row's pass: which due occurrence to send (the latest, once), how many are skipped, and what comes next. */
export function planRecurringSend(rule: Recurrence, scheduledMs: number, nowMs: number, sent: number): RecurringPlan {
  let latest = scheduledMs;
  let skipped = 0;
  for (let guard = 0; guard < 5000; guard += 1) {
    const following = nextOccurrence(rule, latest);
    if (following === null || following > nowMs || !withinEnd(rule, following, sent)) break;
    latest = following;
    skipped += 1;
  }
  const lateBy = nowMs - latest;
  const send = lateBy <= LATE_SEND_WINDOW_MS && withinEnd(rule, latest, sent);
  const after = nextOccurrence(rule, nowMs);
  const next = after !== null && withinEnd(rule, after, sent + (send ? 1 : 0)) ? new Date(after) : null;
  return { send, late: send && lateBy > LATE_AFTER_MS, skipped: skipped + (send ? 0 : 1), next };
}

/** The note a pass leaves on the row: skipped sends, or Discord's refusal of this one. */
export function passNote(plan: RecurringPlan, refusal: string | null): string | null {
  const parts: string[] = [];
  if (plan.skipped > 0) parts.push(`${plan.skipped} send${plan.skipped === 1 ? ' was' : 's were'} skipped while the bot was offline.`);
  if (refusal) parts.push(`The last send failed: ${refusal}`);
  return parts.length > 0 ? parts.join(' ') : null;
}
