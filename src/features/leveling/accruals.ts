// The earning pipeline: messages and voice minutes earn XP and coins in memory (cooldowns kept
// here, nothing awaited on the store), and a flush hands them to the store writer at least once a
// second, which writes them in one transaction (src/features/leveling/flush.ts), detects level-ups
// and credits level bonuses through the ledger; the level-ups go to whoever announces them. A
// failed flush keeps its accruals for the next one.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock';
import { PeriodicTask } from '../../core/periodic';
import type { Logger } from '../../logger';
import { XP_PER_MESSAGE } from '../../shared/leveling';
import type { GuildSettings } from '../../shared/settings';
import { xpRuleFactor } from '../../shared/xp-rules';
import type { ProductWriter } from '../../core/write-jobs';
import { entriesOf, entryOf, type TwoLevel } from '../../core/two-level';
import { accrualRowsJson, type AccrualFlush, type AccrualFlushResult, type AccrualRow, type LevelReached } from './flush';

/** How long a committed flush's id is kept to answer a retry (retries come within seconds). */
const FLUSH_ID_TTL_MS = 24 * 60 * 60 * 1000;
/** How often old flush ids are pruned. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** What one member earned since the last flush, where they last posted, and since when. */
interface Pending extends AccrualRow {
  /** Where the member last posted: a level-up is announced there. */
  channelId: string | null;
  /** When the oldest of these accruals happened (clock ms). */
  since: number;
}

/** A member who reached a new level in a flush, and where they last posted. */
export interface LevelUp extends LevelReached {
  channelId: string | null;
}

/** The longest name written with a member's levels and wallet (the columns' size). */
const USERNAME_MAX = 100;

/** A message as the pipeline sees it. */
export interface MessageInput {
  guildId: string;
  userId: string;
  username: string;
  messageId: string;
  channelId: string;
  /** The member boosts the server. */
  booster: boolean;
  /** The channel's parent (a thread's channel, a channel's category), for the XP rules. */
  parentId?: string | null;
  /** The member's roles, for the XP rules (read only when a rule names roles: rulesNeedRoles). */
  roleIds?: readonly string[];
}

/** One flush's write, as metrics see it. */
export interface FlushTiming {
  /** How long the write took, in ms (the transaction, committed or not). */
  ms: number;
  /** Members written. */
  members: number;
  ok: boolean;
  /** How old the batch's oldest accrual was when the write ended (ms): how long an accrual waited for the store. */
  oldestAgeMs: number;
}

/** How often accruals are written: well inside the promise that none waits more than a second. */
const FLUSH_INTERVAL_MS = 250;

/** When the oldest of these accruals happened (clock ms; Infinity for none). */
function oldestSince(batch: readonly Pending[]): number {
  let oldest = Infinity;
  for (const entry of batch) if (entry.since < oldest) oldest = entry.since;
  return oldest;
}

/** The level-ups with the channel each member last posted in, from the batch they were written from. */
function withChannels(levelUps: readonly LevelReached[], batch: readonly Pending[]): LevelUp[] {
  const channels = new Map(batch.map((entry) => [`${entry.guildId}:${entry.userId}`, entry.channelId]));
  return levelUps.map((levelUp) => ({ ...levelUp, channelId: channels.get(`${levelUp.guildId}:${levelUp.userId}`) ?? null }));
}

/** The XP a message earns under these settings at this time: 5-20, then the multipliers, then the XP rules' factor (xpRuleFactor). */
export function messageXp(settings: GuildSettings, at: Date, booster: boolean, random: () => number, ruleFactor = 1): number {
  const base = XP_PER_MESSAGE.min + Math.floor(random() * (XP_PER_MESSAGE.max - XP_PER_MESSAGE.min + 1));
  const day = at.getUTCDay();
  const weekend = day === 0 || day === 6 ? settings.weekendMultiplier : 1;
  return Math.round(base * settings.textMultiplier * weekend * (booster ? settings.boostMultiplier : 1) * ruleFactor);
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
  /** The batch being written: still unwritten until its transaction commits. */
  private writing: readonly Pending[] = [];
  private lastPruneMs = 0;
  private levelUpListener: (levelUps: LevelUp[]) => void = () => undefined;
  private flushedListener: (guildIds: ReadonlySet<string>) => void = () => undefined;
  private readonly flushObservers: ((timing: FlushTiming) => void)[] = [];

  constructor(
    private readonly deps: {
      /** Runs the flush's transaction (src/db/writer.ts). */
      writer: ProductWriter;
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
    const channelIds = input.parentId ? [input.channelId, input.parentId] : [input.channelId];
    // A no-XP channel or role (XP rules) earns no XP, and spends no cooldown unless it earns coins.
    const factor = settings.levelingEnabled ? xpRuleFactor(settings, { channelIds, roleIds: input.roleIds ?? [] }) : 0;
    const leveling = factor > 0;
    const economy = settings.economyEnabled && settings.baseReward > 0;
    const now = this.deps.clock.ms();
    if (!leveling && !economy) {
      // Still counted where leveling is on: messages count whether or not they earn.
      if (settings.levelingEnabled) this.entry(input.guildId, input.userId, input.username, now).messages += 1;
      return;
    }
    const entry = this.entry(input.guildId, input.userId, input.username, now);
    entry.messages += 1;
    // A level-up is announced where the member last earned XP.
    if (leveling || entry.channelId === null) entry.channelId = input.channelId;
    const cooldown = entryOf(this.cooldowns, input.guildId, input.userId, () => ({ at: -Infinity }));
    if (now - cooldown.at < settings.xpCooldown * 1000) return;
    cooldown.at = now;
    if (leveling) entry.xp += messageXp(settings, new Date(now), input.booster, this.deps.random ?? Math.random, factor);
    if (economy) entry.coins += settings.baseReward;
  }

  /** XP earned in voice (minutes already counted by the voice tracker). */
  voice(guildId: string, userId: string, username: string, xp: number): void {
    if (xp <= 0) return;
    this.entry(guildId, userId, username, this.deps.clock.ms()).xp += xp;
  }

  /** How long the oldest unwritten accrual (waiting, being written, or to retry) has waited, in ms (0 when nothing waits). */
  oldestPendingAgeMs(): number {
    let oldest = oldestSince(this.writing);
    for (const [, , entry] of entriesOf(this.pending)) oldest = Math.min(oldest, entry.since);
    for (const retry of this.retries) oldest = Math.min(oldest, oldestSince(retry.batch));
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

  private entry(guildId: string, userId: string, name: string, now: number): Pending {
    // Discord's names are far shorter and hold no NUL, which PostgreSQL's text cannot.
    const username = name.length > USERNAME_MAX || name.includes('\0') ? name.replaceAll('\0', '').slice(0, USERNAME_MAX) : name;
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

  /**
   * Has the writer write one batch under `id` (counted as waiting until it commits); on failure
   * keeps it for the next flush.
   */
  private async writeBatch(id: string, batch: Pending[], retry: boolean): Promise<void> {
    const started = performance.now();
    this.writing = batch;
    let result: AccrualFlushResult;
    try {
      result = await this.deps.writer.run('accruals', await this.flushOf(id, batch, retry));
    } catch (error) {
      this.deps.logger.error({ err: error, members: batch.length }, 'XP flush failed; keeping the accruals for the next flush');
      this.retries.push({ id, batch });
      this.observeFlush(started, batch, false);
      return;
    } finally {
      this.writing = [];
    }
    this.observeFlush(started, batch, true);
    if (!result.written) {
      this.deps.logger.warn({ flush: id, members: batch.length }, 'an XP flush reported as failed had been committed; not writing it again');
      return;
    }
    try {
      this.flushedListener(new Set(batch.map((entry) => entry.guildId)));
      if (result.levelUps.length > 0) this.levelUpListener(withChannels(result.levelUps, batch));
    } catch (error) {
      this.deps.logger.error({ err: error }, 'level-up handling failed');
    }
  }

  /** The flush the writer receives: the rows, their instant, and each guild's level bonus as its settings say now. */
  private async flushOf(id: string, batch: Pending[], retry: boolean): Promise<AccrualFlush> {
    const now = this.deps.clock.ms();
    let forgetBefore: number | null = null;
    if (now - this.lastPruneMs >= PRUNE_EVERY_MS) {
      this.lastPruneMs = now;
      forgetBefore = now - FLUSH_ID_TTL_MS;
    }
    const bonusPerLevel: Record<string, number> = {};
    for (const guildId of new Set(batch.map((entry) => entry.guildId))) {
      const settings = await this.deps.settings.get(guildId);
      bonusPerLevel[guildId] = settings.economyEnabled ? settings.levelUpBonus : 0;
    }
    return { id, retry, at: now, forgetBefore, bonusPerLevel, rows: accrualRowsJson(batch) };
  }

  private observeFlush(started: number, batch: readonly Pending[], ok: boolean): void {
    const timing = { ms: performance.now() - started, members: batch.length, ok, oldestAgeMs: Math.max(0, this.deps.clock.ms() - oldestSince(batch)) };
    for (const observer of this.flushObservers) {
      try {
        observer(timing);
      } catch (error) {
        this.deps.logger.error({ err: error }, 'flush observer failed');
      }
    }
  }
}
