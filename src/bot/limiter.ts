import type { Clock } from '../core/clock';

const WINDOW_MS = 60_000;

/**
 * Commands per minute per member (Bot Settings → rate limit), for slash and text commands alike:
 * a sliding window of the last minute's uses, kept in memory. Time comes from the clock.
 */
export class CommandLimiter {
  private readonly uses = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly clock: Clock) {}

  /** Counts a use; returns 0 when allowed, else the seconds until the member may try again. */
  take(guildId: string, userId: string, perMinute: number): number {
    const now = this.clock.ms();
    this.sweep(now);
    const key = `${guildId}:${userId}`;
    const recent = (this.uses.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
    if (recent.length >= perMinute) {
      this.uses.set(key, recent);
      const oldest = recent[recent.length - perMinute] ?? now;
      return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    }
    recent.push(now);
    this.uses.set(key, recent);
    return 0;
  }

  /** Drops members with no use in the last minute, at most once a minute, so the map stays small. */
  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = now;
    for (const [key, times] of this.uses) if ((times.at(-1) ?? 0) <= now - WINDOW_MS) this.uses.delete(key);
  }
}
