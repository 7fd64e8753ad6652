// The arithmetic of changing a case's duration after the fact, apart from Discord and the store. A
// new duration counts from the case's start (when the ban or timeout began), not from the change:
// a 1-day ban changed to 1 week ends a week after it began; changed to 1 hour after two hours, it
// is already over and is lifted at once (a timeout) or at the next sweep (a ban).
import { DURATIONS } from '../../shared/moderation';
import { PERMANENT, type CaseDuration } from '../../shared/moderation-cases';

/** Discord's longest timeout: 28 days. A longer one is renewed from the case's expiresAt (long-timeouts.ts). */
export const DISCORD_MAX_TIMEOUT_MS = 28 * 86_400_000;

/** Where Discord's timeout should end for a case expiring at `expiresAt`: the expiry, or 28 days from now if that is sooner. */
export const discordTimeoutEnd = (now: number, expiresAt: number) => Math.min(expiresAt, now + DISCORD_MAX_TIMEOUT_MS);

/** When a case with this duration ends (ms since the epoch), counted from its start; null: never (a permanent ban). */
export function plannedEnd(startedAt: number, duration: CaseDuration): number | null {
  return duration === PERMANENT ? null : startedAt + DURATIONS[duration];
}

/** What to ask of Discord for a timeout ending at `end`: lift it now, or time out until the end, at most 28 days ahead. */
export function timeoutRequest(end: number, now: number): { lift: true } | { lift: false; until: number } {
  return end <= now ? { lift: true } : { lift: false, until: discordTimeoutEnd(now, end) };
}
