import { PeriodicTask } from './periodic';
import type { Logger } from '../logger';
import { entriesOf, entryOf, setEntry, type TwoLevel } from './two-level';
import type { ProductWriter } from './write-jobs';
import { activityWrite, type DayCounters } from '../db/activity-write';
import { utcDay } from './clock';

const DAY_MS = 86_400_000;
/**
 * A member's last post is written once it is this much newer than the one written before: "active
 * in the last 7 days" needs no more, and the upsert of every chatting member's row each second held
 * the store's write lock for up to half a second at full chat speed, while the XP flush waited.
 */
export const LAST_POST_PRECISION_MS = 3_600_000;
/**
 * Counts are written every 5 s (and at shutdown), through the store writer (src/db/writer.ts) like
 * the XP flush: SQLite's write transactions take turns, and the XP flush (whose accruals must be
 * written within a second) should wait behind as few as possible. What a crash can lose is the
 * last 5 s of the dashboard's activity counts; XP and coins keep their own 250 ms flush.
 */
const ACTIVITY_FLUSH_MS = 5000;

/**
 * Counts guild activity (messages, joins, leaves, commands, who posted when) in memory and writes
 * it in one transaction per flush, so a busy guild costs one write every 5 s, not one per message.
 * A message costs two map lookups by the ids discord.js holds and no allocation once its author
 * has posted since the last flush: it runs for every message the bot sees.
 */
export class ActivityRecorder {
  /** Counters by UTC day, then guild. */
  private days: TwoLevel<DayCounters> = new Map();
  /** When each member last posted (epoch ms), by guild. */
  private lastPosts: TwoLevel<{ at: number }> = new Map();
  /** The last post written per member (epoch ms), by guild: see LAST_POST_PRECISION_MS. */
  private readonly writtenPosts: TwoLevel<number> = new Map();
  private commandCounts: TwoLevel<{ count: number }> = new Map();
  /** The UTC day last asked for, as text, and the instants it spans. */
  private today = { start: 0, end: 0, day: '' };
  private readonly task: PeriodicTask;
  private readonly flushedListeners: ((guildIds: Set<string>) => void)[] = [];

  constructor(
    /** Runs each write's transaction (src/db/writer.ts). */
    private readonly writer: ProductWriter,
    private readonly logger: Logger,
    flushIntervalMs = ACTIVITY_FLUSH_MS,
  ) {
    this.task = new PeriodicTask('stats flush', () => this.writePending(), logger, flushIntervalMs);
  }

  /** A member posted in a guild, at a Date or epoch ms. */
  message(guildId: string, userId: string, at: Date | number = Date.now()): void {
    const ms = typeof at === 'number' ? at : at.getTime();
    this.counters(guildId, this.dayOf(ms)).messages += 1;
    const last = entryOf(this.lastPosts, guildId, userId, () => ({ at: ms }));
    if (last.at < ms) last.at = ms;
  }

  /** A member joined. */
  join(guildId: string, at = new Date()): void {
    this.counters(guildId, this.dayOf(at.getTime())).joins += 1;
  }

  /** A member left. */
  leave(guildId: string, at = new Date()): void {
    this.counters(guildId, this.dayOf(at.getTime())).leaves += 1;
  }

  /** A slash command ran. */
  command(guildId: string, command: string, at = new Date()): void {
    this.counters(guildId, this.dayOf(at.getTime())).commands += 1;
    entryOf(this.commandCounts, guildId, command, () => ({ count: 0 })).count += 1;
  }

  /** Calls `listener` with the guilds whose counts (messages, joins, commands) each flush wrote. */
  onFlushed(listener: (guildIds: Set<string>) => void): void {
    this.flushedListeners.push(listener);
  }

  /** Starts the periodic flush. */
  start(): void {
    this.task.start();
  }

  /** Stops the timer and writes what is pending. */
  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Writes everything pending in one transaction; flushes never overlap. On failure the counts are kept for the next try. */
  flush(): Promise<void> {
    return this.task.run();
  }

  /** The UTC day of an instant as YYYY-MM-DD, made once per day rather than per event. */
  private dayOf(ms: number): string {
    if (ms < this.today.start || ms >= this.today.end) {
      const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.today = { start, end: start + DAY_MS, day: utcDay(new Date(start)) };
    }
    return this.today.day;
  }

  private counters(guildId: string, day: string): DayCounters {
    return entryOf(this.days, day, guildId, () => ({ guildId, day, messages: 0, joins: 0, leaves: 0, commands: 0 }));
  }

  /** Tells the listeners what a flush wrote; what they throw is logged, never taken for a failed write. */
  private tellFlushed(guildIds: Set<string>): void {
    if (guildIds.size === 0) return;
    for (const listener of this.flushedListeners) {
      try {
        listener(guildIds);
      } catch (error) {
        this.logger.error({ err: error }, 'a listener of the activity flush failed');
      }
    }
  }

  private async writePending(): Promise<void> {
    if (!this.days.size && !this.lastPosts.size && !this.commandCounts.size) return;
    const days = [...entriesOf(this.days)].map(([, , counters]) => counters);
    const posts = [...entriesOf(this.lastPosts)]
      .filter(([guildId, userId, { at }]) => at - (this.writtenPosts.get(guildId)?.get(userId) ?? -Infinity) >= LAST_POST_PRECISION_MS)
      .map(([guildId, userId, { at }]) => ({ guildId, userId, at }));
    const commands = [...entriesOf(this.commandCounts)].map(([guildId, command, { count }]) => ({ guildId, command, count }));
    this.days = new Map();
    this.lastPosts = new Map();
    this.commandCounts = new Map();
    try {
      await this.writer.run('activity', activityWrite(days, posts, commands));
      for (const post of posts) setEntry(this.writtenPosts, post.guildId, post.userId, post.at);
      this.tellFlushed(new Set([...days.map((row) => row.guildId), ...commands.map((row) => row.guildId)]));
    } catch (error) {
      this.logger.error({ err: error }, 'activity flush failed; keeping the counts for the next flush');
      for (const row of days) {
        const counters = this.counters(row.guildId, row.day);
        counters.messages += row.messages;
        counters.joins += row.joins;
        counters.leaves += row.leaves;
        counters.commands += row.commands;
      }
      for (const { guildId, userId, at } of posts) {
        const last = entryOf(this.lastPosts, guildId, userId, () => ({ at }));
        if (last.at < at) last.at = at;
      }
      for (const row of commands) entryOf(this.commandCounts, row.guildId, row.command, () => ({ count: 0 })).count += row.count;
    }
  }
}
