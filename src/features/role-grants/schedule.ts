// When a role grant Discord did not answer is tried again, and when it is given up.
import { ROLE_GRANT_GIVE_UP_MS, ROLE_GRANT_RETRY_DELAYS_MS } from '../../shared/role-grants';

/**
 * When the next try is due after `attempts` tries (the first one included) that Discord did not
 * answer, or null to give up: after the last delay of the schedule, or once the grant has waited
 * ROLE_GRANT_GIVE_UP_MS since it was queued (the bot was offline for a day: a grant that old is
 * given up rather than dragged on).
 */
export function nextAttemptAt(attempts: number, queuedAt: Date, now: Date): Date | null {
  const delay = ROLE_GRANT_RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined || now.getTime() - queuedAt.getTime() >= ROLE_GRANT_GIVE_UP_MS) return null;
  return new Date(now.getTime() + delay);
}
