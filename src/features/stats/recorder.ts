import { PeriodicTask } from '../../core/periodic';
import { insertRows } from '../../db/sql';
import type { Store } from '../../db/store';
import type { Logger } from '../../logger';

/** The UTC day of a time, as stored: YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

interface DayCounters {
  guildId: string;
  day: string;
  messages: number;
  joins: number;
  leaves: number;
  commands: number;
}


/**
 * Counts guild activity (messages, joins, leaves, commands, who posted when) in memory and writes
 * it in one transaction per flush, so a busy guild costs one write a second, not one per message.
 */
export class ActivityRecorder {
  private days = new Map<string, DayCounters>();
  private lastPosts = new Map<string, { guildId: string; userId: string; at: Date }>();
  private commandCounts = new Map<string, { guildId: string; command: string; count: number }>();
  private readonly task: PeriodicTask;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    flushIntervalMs = 1000,
  ) {
    this.task = new PeriodicTask('stats flush', () => this.writePending(), logger, flushIntervalMs);
  }

  /** A member posted in a guild. */
  message(guildId: string, userId: string, at = new Date()): void {
    this.day(guildId, at).messages += 1;
    this.lastPosts.set(`${guildId}:${userId}`, { guildId, userId, at });
  }

  /** A member joined. */
  join(guildId: string, at = new Date()): void {
    this.day(guildId, at).joins += 1;
  }

  /** A member left. */
  leave(guildId: string, at = new Date()): void {
    this.day(guildId, at).leaves += 1;
  }

  /** A slash command ran. */
  command(guildId: string, command: string, at = new Date()): void {
    this.day(guildId, at).commands += 1;
    const key = `${guildId}:${command}`;
    const entry = this.commandCounts.get(key) ?? { guildId, command, count: 0 };
    entry.count += 1;
    this.commandCounts.set(key, entry);
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

  private day(guildId: string, at: Date): DayCounters {
    const day = utcDay(at);
    const key = `${guildId}:${day}`;
    let counters = this.days.get(key);
    if (!counters) {
      counters = { guildId, day, messages: 0, joins: 0, leaves: 0, commands: 0 };
      this.days.set(key, counters);
    }
    return counters;
  }

  private async writePending(): Promise<void> {
    if (!this.days.size && !this.lastPosts.size && !this.commandCounts.size) return;
    const days = [...this.days.values()];
    const posts = [...this.lastPosts.values()];
    const commands = [...this.commandCounts.values()];
    this.days = new Map();
    this.lastPosts = new Map();
    this.commandCounts = new Map();
    const { sequelize } = this.store;
    try {
      await sequelize.transaction(async (transaction) => {
        await insertRows(
          sequelize,
          {
            into: 'guild_daily_stats ("guildId", "day", "messages", "joins", "leaves", "commands")',
            rows: days,
            values: (r) => [r.guildId, r.day, r.messages, r.joins, r.leaves, r.commands],
            tail: `ON CONFLICT ("guildId", "day") DO UPDATE SET
               "messages" = guild_daily_stats."messages" + excluded."messages",
               "joins" = guild_daily_stats."joins" + excluded."joins",
               "leaves" = guild_daily_stats."leaves" + excluded."leaves",
               "commands" = guild_daily_stats."commands" + excluded."commands"`,
          },
          transaction,
        );
        await insertRows(
          sequelize,
          {
            into: 'member_activity ("guildId", "userId", "lastMessageAt")',
            rows: posts,
            values: (r) => [r.guildId, r.userId, r.at],
            tail: `ON CONFLICT ("guildId", "userId") DO UPDATE SET "lastMessageAt" =
               CASE WHEN excluded."lastMessageAt" > member_activity."lastMessageAt" THEN excluded."lastMessageAt" ELSE member_activity."lastMessageAt" END`,
          },
          transaction,
        );
        await insertRows(
          sequelize,
          {
            into: 'command_usage ("guildId", "command", "count")',
            rows: commands,
            values: (r) => [r.guildId, r.command, r.count],
            tail: 'ON CONFLICT ("guildId", "command") DO UPDATE SET "count" = command_usage."count" + excluded."count"',
          },
          transaction,
        );
      });
    } catch (error) {
      this.logger.error({ err: error }, 'activity flush failed; keeping the counts for the next flush');
      for (const row of days) {
        const counters = this.day(row.guildId, new Date(`${row.day}T00:00:00Z`));
        counters.messages += row.messages;
        counters.joins += row.joins;
        counters.leaves += row.leaves;
        counters.commands += row.commands;
      }
      for (const post of posts) {
        const key = `${post.guildId}:${post.userId}`;
        const newer = this.lastPosts.get(key);
        if (!newer || newer.at < post.at) this.lastPosts.set(key, post);
      }
      for (const row of commands) {
        const key = `${row.guildId}:${row.command}`;
        const entry = this.commandCounts.get(key) ?? { ...row, count: 0 };
        entry.count += row.count;
        this.commandCounts.set(key, entry);
      }
    }
  }
}
