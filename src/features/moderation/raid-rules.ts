// The rules of raid protection with no Discord in them: the sliding window that spots a burst of
// joins, an account's age read from its id, and the decisions raid mode takes over time (fall back
// after a quiet period, renew the invite pause, restore the verification level or leave a
// moderator's). Unit-tested in raid-rules.test.ts; raids.ts acts on them.
import { INVITE_RENEW_BEFORE_MS } from '../../shared/raids';

/** Discord's epoch (2015-01-01T00:00:00Z): an id's first 42 bits count milliseconds from it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000;
const DAY_MS = 86_400_000;

/** When the account behind a Discord id was created (ms since 1970), or null for text that is no id. */
export function accountCreatedAt(userId: string): number | null {
  if (!/^\d{15,21}$/.test(userId)) return null;
  return Number(BigInt(userId) >> 22n) + DISCORD_EPOCH_MS;
}

/** Whole days an account has existed at `nowMs` (0 for a day-old one), or null for no id. */
export function accountAgeDays(userId: string, nowMs: number): number | null {
  const created = accountCreatedAt(userId);
  return created === null ? null : Math.max(0, Math.floor((nowMs - created) / DAY_MS));
}

/** Whether the account is younger than `minDays` days (an id that cannot be read is not judged). */
export function isYoungAccount(userId: string, nowMs: number, minDays: number): boolean {
  const created = accountCreatedAt(userId);
  return created !== null && nowMs - created < minDays * DAY_MS;
}

/** A join burst: the joins inside the window when it reached the rule's count. */
export interface Burst {
  userIds: string[];
  /** The window's span from its first join to the last, in whole seconds (at least 1). */
  spanSeconds: number;
}

/**
 * Each guild's recent joins, kept for the rule's window only: `record` adds a join and answers the
 * burst when the window holds at least `joins` of them. One per process, in memory: a restart
 * forgets the window (raid mode itself is in the store).
 */
export class JoinWindow {
  private readonly joins = new Map<string, { userId: string; at: number }[]>();

  /**
   * Adds a join at `at` (ms); returns the burst when `joins` or more came within `seconds`, else
   * null. Joins before `notBefore` are not counted (those of a raid mode that just ended).
   */
  record(guildId: string, userId: string, at: number, rule: { joins: number; seconds: number }, notBefore = 0): Burst | null {
    const since = at - rule.seconds * 1000;
    const kept = (this.joins.get(guildId) ?? []).filter((join) => join.at > since && join.at >= notBefore && join.userId !== userId);
    kept.push({ userId, at });
    // No more than the largest count a rule may ask for is ever needed.
    if (kept.length > 100) kept.splice(0, kept.length - 100);
    this.joins.set(guildId, kept);
    if (kept.length < rule.joins) return null;
    const first = kept[0]?.at ?? at;
    return { userIds: kept.map((join) => join.userId), spanSeconds: Math.max(1, Math.ceil((at - first) / 1000)) };
  }
}

/** Whether raid mode falls back at `nowMs`: no burst for `quietMinutes` since the last one (or the start). */
export function fallBackDue(lastBurstAt: Date, quietMinutes: number, nowMs: number): boolean {
  return nowMs - lastBurstAt.getTime() >= quietMinutes * 60_000;
}

/** When raid mode falls back if nothing comes before. */
export function fallsBackAt(lastBurstAt: Date, quietMinutes: number): Date {
  return new Date(lastBurstAt.getTime() + quietMinutes * 60_000);
}

/** Whether the invite pause runs out soon enough to renew it (Discord takes at most 24 hours ahead). */
export function inviteRenewalDue(pausedUntil: Date, nowMs: number): boolean {
  return pausedUntil.getTime() - nowMs < INVITE_RENEW_BEFORE_MS;
}

/**
 * The verification level to put back when raid mode ends: the one it replaced, unless the server is
 * no longer at the level raid mode set (a moderator changed it meanwhile: theirs stays), or raid
 * mode did not raise it. Null: leave the level as it is.
 */
export function levelToRestore(raid: { raisedTo: number | null; previousLevel: number | null }, currentLevel: number): number | null {
  if (raid.raisedTo === null || raid.previousLevel === null) return null;
  if (currentLevel !== raid.raisedTo) return null;
  return raid.previousLevel;
}

/** The level to raise to, or null when the server is already at it or above. */
export function levelToRaise(currentLevel: number, wanted: number): number | null {
  return currentLevel >= wanted ? null : wanted;
}
