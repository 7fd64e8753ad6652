// The earning pipeline: messages and voice minutes earn XP and coins in memory (cooldowns kept
// here, nothing awaited on the store), and a flush writes them at least once a second in one
// transaction, detects level-ups, credits level bonuses through the ledger, and hands the
// level-ups to whoever announces them. A failed flush keeps its accruals for the next one.
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Transaction as SqlTransaction } from 'sequelize';
import type { Clock } from '../../core/clock';
import { PeriodicTask } from '../../core/periodic';
import type { Store } from '../../db/store';
import type { Logger } from '../../logger';
import { insertRows, together } from '../../db/sql';
import { levelFromTotal, XP_PER_MESSAGE } from '../../shared/leveling';
import type { GuildSettings } from '../../shared/settings';
import { utcDay } from '../stats/recorder';
import { entriesOf, entryOf, type TwoLevel } from '../../core/two-level';

/** How long a committed flush's id is kept to answer a retry (retries come within seconds). */
const FLUSH_ID_TTL_MS = 24 * 60 * 60 * 1000;
/** How often old flush ids are pruned. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** What one member earned since the last flush. */
interface Pending {
  guildId: string;
  userId: string;
  username: string;
  xp: number;
  coins: number;
  /** Messages counted (every message, not only those that earned XP). */
  messages: number;
  /** Where the member last posted: a level-up is announced there. */
  channelId: string | null;
  /** When the oldest of these accruals happened (clock ms). */
  since: number;
}

/** A member who reached a new level in a flush. */
export interface LevelUp {
  guildId: string;
  userId: string;
  username: string;
  from: number;
  to: number;
  /** Coins credited for the levels gained. */
  bonus: number;
  channelId: string | null;
}

/** A message as the pipeline sees it. */
export interface MessageInput {
  guildId: string;
  userId: string;
  username: string;
  messageId: string;
  channelId: string;
  /** The member boosts the server. */
  booster: boolean;
}

/** One flush's write, as metrics see it. */
export interface FlushTiming {
  /** How long the write took, in ms (the transaction, committed or not). */
  ms: number;
  /** Members written. */
  members: number;
  ok: boolean;
}

/** How often accruals are written: well inside the promise that none waits more than a second. */
const FLUSH_INTERVAL_MS = 250;

/** The XP a message earns under these settings at this time: 5-20, then the multipliers. */
export function messageXp(settings: GuildSettings, at: Date, booster: boolean, random: () => number): number {
  const base = XP_PER_MESSAGE.min + Math.floor(random() * (XP_PER_MESSAGE.max - XP_PER_MESSAGE.min + 1));
  const day = at.getUTCDay();
  const weekend = day === 0 || day === 6 ? settings.weekendMultiplier : 1;
  return Math.round(base * settings.textMultiplier * weekend * (booster ? settings.boostMultiplier : 1));
}

/**
 * Accrues XP and coins per member and writes them in batches. One per process, in Services.
 * `onLevelUps` runs after each committed flush with the level-ups it found.
 */
export class Accruals {
  /** By guild, then member: a message finds its entry by the ids discord.js holds, building no key. */
  private pending: TwoLevel<Pending> = new Map();
  /** When each member last earned (clock ms), by guild, then member. */
  private readonly cooldowns: TwoLevel<{ at: number }> = new Map();
  private readonly task: PeriodicTask;
  /** Batches whose flush failed, with the id they were written under, retried first. */
  private retries: { id: string; batch: Pending[] }[] = [];
  private lastPruneMs = 0;
  private levelUpListener: (levelUps: LevelUp[]) => void = () => undefined;
  private flushedListener: (guildIds: ReadonlySet<string>) => void = () => undefined;
  private readonly flushObservers: ((timing: FlushTiming) => void)[] = [];

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      logger: Logger;
      settings: { get(guildId: string): Promise<GuildSettings> };
      random?: () => number;
      flushIntervalMs?: number;
    },
  ) {
    this.task = new PeriodicTask('XP flush', () => this.writePending(), deps.logger, deps.flushIntervalMs ?? FLUSH_INTERVAL_MS);
  }

  /** Who hears about level-ups (announcements, role rewards, notifications). */
  onLevelUps(listener: (levelUps: LevelUp[]) => void): void {
    this.levelUpListener = listener;
  }

  /** Who hears that a flush was written, with the guilds it wrote (caches of what it changed). */
  onFlushed(listener: (guildIds: ReadonlySet<string>) => void): void {
    this.flushedListener = listener;
  }

  /** Adds an observer of every flush that had something to write (its duration, for metrics). */
  observeFlushes(observer: (timing: FlushTiming) => void): void {
    this.flushObservers.push(observer);
  }

  /**
   * A member's message: counted, and earning XP (and coins) unless the member is within the
   * cooldown. A replayed message never reaches here: the bot drops replayed events before any
   * listener runs (src/bot/replay-guard.ts).
   */
  message(input: MessageInput, settings: GuildSettings): void {
    const leveling = settings.levelingEnabled;
    const economy = settings.economyEnabled && settings.baseReward > 0;
    if (!leveling && !economy) return;
    const now = this.deps.clock.ms();
    const entry = this.entry(input.guildId, input.userId, input.username, now);
    entry.messages += 1;
    entry.channelId = input.channelId;
    const cooldown = entryOf(this.cooldowns, input.guildId, input.userId, () => ({ at: -Infinity }));
    if (now - cooldown.at < settings.xpCooldown * 1000) return;
    cooldown.at = now;
    if (leveling) entry.xp += messageXp(settings, new Date(now), input.booster, this.deps.random ?? Math.random);
    if (economy) entry.coins += settings.baseReward;
  }

  /** XP earned in voice (minutes already counted by the voice tracker). */
  voice(guildId: string, userId: string, username: string, xp: number): void {
    if (xp <= 0) return;
    this.entry(guildId, userId, username, this.deps.clock.ms()).xp += xp;
  }

  /** How long the oldest unwritten accrual has waited, in ms (0 when nothing waits). */
  oldestPendingAgeMs(): number {
    let oldest = Infinity;
    for (const [, , entry] of entriesOf(this.pending)) oldest = Math.min(oldest, entry.since);
    for (const entry of this.retries.flatMap((retry) => retry.batch)) oldest = Math.min(oldest, entry.since);
    return oldest === Infinity ? 0 : Math.max(0, this.deps.clock.ms() - oldest);
  }

  /** Members with accruals waiting. */
  pendingCount(): number {
    let count = this.retries.reduce((sum, retry) => sum + retry.batch.length, 0);
    for (const members of this.pending.values()) count += members.size;
    return count;
  }

  /** Starts the periodic flush (every 250 ms by default). */
  start(): void {
    this.task.start();
  }

  /** Stops the timer and writes what waits. */
  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Writes what waits; flushes never overlap, and one that throws does not stop the next. */
  flush(): Promise<void> {
    return this.task.run();
  }

  private entry(guildId: string, userId: string, username: string, now: number): Pending {
    const entry = entryOf(this.pending, guildId, userId, () => ({ guildId, userId, username, xp: 0, coins: 0, messages: 0, channelId: null, since: now }));
    entry.username = username;
    return entry;
  }

  private async writePending(): Promise<void> {
    // Batches whose flush failed go first, each under its own id: if its COMMIT landed after all
    // (the error came after the server committed), its id is in accrual_flushes and it is dropped.
    const retries = this.retries;
    this.retries = [];
    for (const retry of retries) await this.writeBatch(retry.id, retry.batch, true);
    if (this.pending.size === 0) return;
    const batch = [...entriesOf(this.pending)].map(([, , entry]) => entry);
    this.pending = new Map();
    await this.writeBatch(randomUUID(), batch, false);
  }

  /** Writes one batch in one transaction under `id`; on failure keeps it for the next flush. */
  private async writeBatch(id: string, batch: Pending[], retry: boolean): Promise<void> {
    const { sequelize } = this.deps.store;
    let levelUps: LevelUp[] = [];
    const started = performance.now();
    try {
      if (retry && (await sequelize.query('SELECT 1 FROM accrual_flushes WHERE id = ?', { replacements: [id], type: QueryTypes.SELECT })).length > 0) {
        this.deps.logger.warn({ flush: id, members: batch.length }, 'an XP flush reported as failed had been committed; not writing it again');
        return;
      }
      levelUps = await sequelize.transaction(async (transaction) => {
        const now = this.deps.clock.now();
        const [, found] = await together(sequelize, [
          () => sequelize.query('INSERT INTO accrual_flushes (id, "createdAt") VALUES (?, ?)', { replacements: [id, now], transaction }),
          () => this.write(batch, transaction),
        ] as const);
        if (now.getTime() - this.lastPruneMs >= PRUNE_EVERY_MS) {
          this.lastPruneMs = now.getTime();
          await sequelize.query('DELETE FROM accrual_flushes WHERE "createdAt" < ?', { replacements: [new Date(now.getTime() - FLUSH_ID_TTL_MS)], transaction });
        }
        return found;
      });
    } catch (error) {
      this.deps.logger.error({ err: error, members: batch.length }, 'XP flush failed; keeping the accruals for the next flush');
      this.retries.push({ id, batch });
      this.observeFlush(started, batch.length, false);
      return;
    }
    this.observeFlush(started, batch.length, true);
    try {
      this.flushedListener(new Set(batch.map((entry) => entry.guildId)));
      if (levelUps.length > 0) this.levelUpListener(levelUps);
    } catch (error) {
      this.deps.logger.error({ err: error }, 'level-up handling failed');
    }
  }

  private observeFlush(started: number, members: number, ok: boolean): void {
    const timing = { ms: performance.now() - started, members, ok };
    for (const observer of this.flushObservers) {
      try {
        observer(timing);
      } catch (error) {
        this.deps.logger.error({ err: error }, 'flush observer failed');
      }
    }
  }

  /**
   * One flush's writes, in one transaction; returns the level-ups. Statements that do not need
   * each other's results are sent together (see together()): each is a round trip through the
   * event loop, which chat at full speed keeps busy for tens of milliseconds a turn, and the flush
   * must end well inside its second.
   */
  private async write(batch: Pending[], transaction: SqlTransaction): Promise<LevelUp[]> {
    const { sequelize } = this.deps.store;
    const now = this.deps.clock.now();
    const earners = batch.filter((entry) => entry.xp > 0 || entry.messages > 0);
    const chatRewards = batch.filter((entry) => entry.coins > 0).map((entry) => ({ guildId: entry.guildId, userId: entry.userId, username: entry.username, amount: entry.coins, description: 'Chat rewards' }));
    const [current] = await together(sequelize, [
      // The new totals come back from the upsert itself.
      () => insertRows<Pending, { guildId: string; userId: string; level: number; xp: number; totalXp: number }>(
        sequelize,
        {
          into: 'user_levels ("guildId", "userId", "username", "level", "xp", "totalXp", "messagesCount", "updatedAt")',
          rows: earners,
          values: (r) => [r.guildId, r.userId, r.username.slice(0, 100), 1, 0, r.xp, r.messages, now],
          tail: `ON CONFLICT ("guildId", "userId") DO UPDATE SET
             "totalXp" = user_levels."totalXp" + excluded."totalXp",
             "messagesCount" = user_levels."messagesCount" + excluded."messagesCount",
             "username" = excluded."username",
             "updatedAt" = excluded."updatedAt"
           RETURNING "guildId", "userId", "level", "xp", "totalXp"`,
        },
        transaction,
      ),
      () => creditEarnings(sequelize, chatRewards, now, transaction),
      () => this.writeDailyXp(batch, now, transaction),
    ] as const);
    // The level follows the new total: a change is a level-up (or a fix after an admin change).
    const byMember = new Map(earners.map((entry) => [`${entry.guildId}:${entry.userId}`, entry]));
    const changed: { guildId: string; userId: string; level: number; xp: number }[] = [];
    const levelUps: LevelUp[] = [];
    for (const row of current) {
      const next = levelFromTotal(Number(row.totalXp));
      if (next.level === Number(row.level) && next.xp === Number(row.xp)) continue;
      changed.push({ guildId: row.guildId, userId: row.userId, ...next });
      if (next.level > Number(row.level)) {
        const entry = byMember.get(`${row.guildId}:${row.userId}`);
        levelUps.push({ guildId: row.guildId, userId: row.userId, username: entry?.username ?? row.userId, from: Number(row.level), to: next.level, bonus: 0, channelId: entry?.channelId ?? null });
      }
    }
    // Level bonuses, by the guild's setting at flush time.
    for (const levelUp of levelUps) {
      const settings = await this.deps.settings.get(levelUp.guildId);
      if (settings.economyEnabled) levelUp.bonus = settings.levelUpBonus * (levelUp.to - levelUp.from);
    }
    const bonuses = levelUps
      .filter((levelUp) => levelUp.bonus > 0)
      .map((levelUp) => ({ guildId: levelUp.guildId, userId: levelUp.userId, username: levelUp.username, amount: levelUp.bonus, description: `Level ${levelUp.to} bonus` }));
    await together(sequelize, [
      // Every row exists now, so this only sets level and xp.
      () => insertRows(
        sequelize,
        {
          into: 'user_levels ("guildId", "userId", "level", "xp", "totalXp", "messagesCount", "updatedAt")',
          rows: changed,
          values: (r) => [r.guildId, r.userId, r.level, r.xp, 0, 0, now],
          tail: 'ON CONFLICT ("guildId", "userId") DO UPDATE SET "level" = excluded."level", "xp" = excluded."xp"',
        },
        transaction,
      ),
      () => creditEarnings(sequelize, bonuses, now, transaction),
    ] as const);
    return levelUps;
  }

  /** XP per guild per day, for the leveling chart. */
  private async writeDailyXp(batch: Pending[], now: Date, transaction: SqlTransaction): Promise<void> {
    const xpByGuild = new Map<string, number>();
    for (const entry of batch) if (entry.xp > 0) xpByGuild.set(entry.guildId, (xpByGuild.get(entry.guildId) ?? 0) + entry.xp);
    const { sequelize } = this.deps.store;
    await together(
      sequelize,
      [...xpByGuild].map(([guildId, xp]) => () =>
        sequelize.query(
          `INSERT INTO guild_daily_stats ("guildId", "day", "messages", "joins", "leaves", "commands", "xp") VALUES (?, ?, 0, 0, 0, 0, ?)
           ON CONFLICT ("guildId", "day") DO UPDATE SET "xp" = guild_daily_stats."xp" + excluded."xp"`,
          { replacements: [guildId, utcDay(now), xp], transaction },
        ),
      ),
    );
  }
}

/** One earning: coins to a member's wallet and its `earn` ledger row. */
export interface Earning {
  guildId: string;
  userId: string;
  username: string;
  amount: number;
  description: string;
}

/**
 * Credits earnings in a transaction: each wallet grows by its amount (made when missing) and
 * gets an `earn` row, so the balance stays the sum of its rows.
 */
export async function creditEarnings(sequelize: Store['sequelize'], earnings: Earning[], now: Date, transaction: SqlTransaction): Promise<void> {
  // One upsert row per wallet (PostgreSQL refuses a statement that updates a row twice), one ledger row per earning.
  const wallets = new Map<string, Earning>();
  for (const earning of earnings) {
    const key = `${earning.guildId}:${earning.userId}`;
    const wallet = wallets.get(key);
    if (wallet) wallet.amount += earning.amount;
    else wallets.set(key, { ...earning });
  }
  // Two tables, sent together (see together()).
  await together(sequelize, [
    () => insertRows(
      sequelize,
      {
        into: 'user_currency ("guildId", "userId", "username", "balance", "totalEarned", "updatedAt")',
        rows: [...wallets.values()],
        values: (r) => [r.guildId, r.userId, r.username.slice(0, 100), r.amount, r.amount, now],
        tail: `ON CONFLICT ("guildId", "userId") DO UPDATE SET
           "balance" = user_currency."balance" + excluded."balance",
           "totalEarned" = user_currency."totalEarned" + excluded."totalEarned",
           "username" = excluded."username",
           "updatedAt" = excluded."updatedAt"`,
      },
      transaction,
    ),
    () => insertRows(
      sequelize,
      { into: 'transactions ("guildId", "userId", "type", "amount", "description", "createdAt")', rows: earnings, values: (r) => [r.guildId, r.userId, 'earn', r.amount, r.description, now] },
      transaction,
    ),
  ] as const);
}
