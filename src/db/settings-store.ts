import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '../logger';
import type { Store } from './store';
import type { Clock } from '../core/clock';
import { Op } from 'sequelize';
import { GuildScope } from './scoped';
import type { EditMeanwhile } from '../core/versions';
import {
  GuildSettingsSchema,
  SETTINGS_DEFAULTS,
  SETTING_KEYS,
  type GuildSettings,
  type HistoryEntry,
  type SettingChange,
  type SettingKey,
} from '../shared/settings';
import type { Actor } from '../core/actor';

/** What the store keeps for a guild: the settings (merged over the defaults), the sealed API key, a write counter. */
export interface StoredSettings {
  settings: GuildSettings;
  apiKeySealed: string | null;
  version: number;
}

/** The kinds of history entries (see src/shared/settings). */
export type HistoryKind = HistoryEntry['kind'];

/** A change to record in the history. */
export interface HistoryRecord {
  actor: Actor;
  kind: HistoryKind;
  summary: string;
  changes: SettingChange[];
}

/** The stored document: only the values that differ from the defaults, and the sealed key. */
interface StoredDocument {
  values: Partial<Record<SettingKey, unknown>>;
  apiKeySealed?: string | null;
}

/** Values that differ from the defaults (what is stored, and what a history snapshot holds). */
export function nonDefaults(settings: GuildSettings): Partial<Record<SettingKey, unknown>> {
  const out: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) if (!isDeepStrictEqual(settings[key], SETTINGS_DEFAULTS[key])) out[key] = settings[key];
  return out;
}

/** The fields whose values differ between two settings. */
export function changedKeys(before: GuildSettings, after: GuildSettings): SettingKey[] {
  return SETTING_KEYS.filter((key) => !isDeepStrictEqual(before[key], after[key]));
}

/**
 * The home of every guild's settings: one JSON document per guild (only what differs from the
 * defaults), kept in memory after the first read and invalidated on every write, so the bot can
 * read settings on every message without touching the store, and the next event after a save
 * uses the new value. Writes of one guild are serialised here and recorded in its history in the
 * same transaction.
 */
export class SettingsStore {
  private readonly cache = new Map<string, Promise<StoredSettings>>();
  /** The settled entries of `cache`, for readers that cannot wait (see `cached`). */
  private readonly settled = new Map<string, GuildSettings>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { store: Store; clock: Clock; logger: Logger }) {}

  /** The guild's settings, merged over the defaults. */
  async get(guildId: string): Promise<GuildSettings> {
    return (await this.stored(guildId)).settings;
  }

  /**
   * Runs `use` with the guild's settings: at once when they are in memory, else once loaded. The
   * handlers of every message read settings this way: an `await` per handler per message (a
   * promise and a turn of the microtask queue each) is measurable at chat speed.
   */
  with<T>(guildId: string, use: (settings: GuildSettings) => T): T | Promise<Awaited<T>> {
    const settings = this.settled.get(guildId);
    return settings ? use(settings) : (this.get(guildId).then(use) as Promise<Awaited<T>>);
  }

  /** The guild's settings with the sealed API key and the version. */
  stored(guildId: string): Promise<StoredSettings> {
    let pending = this.cache.get(guildId);
    if (!pending) {
      const loading = this.load(guildId);
      pending = loading;
      this.cache.set(guildId, loading);
      loading.then(
        (stored) => {
          // Unless a write forgot it meanwhile.
          if (this.cache.get(guildId) === loading) this.settled.set(guildId, stored.settings);
        },
        () => {
          if (this.cache.get(guildId) === loading) this.cache.delete(guildId);
        },
      );
    }
    return pending;
  }

  /** Drops the guild's cached settings (the next read loads them). */
  invalidate(guildId: string): void {
    this.cache.delete(guildId);
    this.settled.delete(guildId);
  }

  /**
   * Changes a guild's settings: `decide` sees the current settings and returns the next ones and
   * what to record, or null to change nothing. Runs one at a time per guild; the write and its
   * history entry are one transaction.
   */
  change(guildId: string, decide: (current: StoredSettings) => Promise<{ next: StoredSettings; record: HistoryRecord } | null>): Promise<StoredSettings> {
    const run = async (): Promise<StoredSettings> => {
      this.invalidate(guildId);
      const current = await this.stored(guildId);
      const decision = await decide(current);
      if (!decision) return current;
      const { next, record } = decision;
      const version = current.version + 1;
      const document: StoredDocument = { values: nonDefaults(next.settings), apiKeySealed: next.apiKeySealed };
      const { sequelize, models } = this.deps.store;
      try {
        await sequelize.transaction(async (transaction) => {
          await models.GuildSettings.upsert(
            { guildId, data: document as unknown as Record<string, unknown>, version, updatedAt: this.deps.clock.now() },
            { transaction },
          );
          await this.insertHistory(guildId, record, document.values, transaction, version);
        });
      } finally {
        this.invalidate(guildId);
      }
      return { ...next, version };
    };
    const queued = (this.queues.get(guildId) ?? Promise.resolve()).then(run, run);
    this.queues.set(
      guildId,
      queued.catch(() => undefined),
    );
    return queued;
  }

  /** Records a change that is not a settings write (a grant given or revoked, coins given, the economy reset), in the caller's transaction when given. */
  async record(guildId: string, record: HistoryRecord, transaction?: import('sequelize').Transaction): Promise<void> {
    await this.insertHistory(guildId, record, null, transaction);
  }

  /** One page of the guild's history, newest first. */
  async history(guildId: string, page: number, pageSize: number): Promise<{ entries: HistoryEntry[]; total: number }> {
    const rows = new GuildScope(this.deps.store.models.SettingsHistory, guildId);
    const [entries, total] = await Promise.all([rows.findAll({ order: [['id', 'DESC']], limit: pageSize, offset: (page - 1) * pageSize }), rows.count()]);
    return {
      total,
      entries: entries.map((row) => ({
        id: row.id,
        kind: row.kind as HistoryKind,
        summary: row.summary,
        actor: { id: row.actorId, name: row.actorName },
        changes: row.changes,
        restorable: row.snapshot !== null,
        createdAt: row.createdAt.toISOString(),
      })),
    };
  }

  /** The settings as they were right after history entry `id`, or null (no such entry, or not a settings change). */
  async snapshot(guildId: string, id: number): Promise<GuildSettings | null> {
    const row = await new GuildScope(this.deps.store.models.SettingsHistory, guildId).findOne({ where: { id } });
    return row?.snapshot ? this.merge(guildId, row.snapshot) : null;
  }

  /** The settings writes after `version` (the changes that produced versions above it), oldest first. */
  async writesSince(guildId: string, version: number): Promise<EditMeanwhile[]> {
    const rows = await new GuildScope(this.deps.store.models.SettingsHistory, guildId).findAll({
      where: { version: { [Op.gt]: version } },
      order: [['version', 'ASC']],
    });
    return rows.map((row) => ({ by: row.actorName, at: row.createdAt, changes: row.changes }));
  }

  private async insertHistory(
    guildId: string,
    record: HistoryRecord,
    snapshot: Record<string, unknown> | null,
    transaction?: import('sequelize').Transaction,
    version: number | null = null,
  ): Promise<void> {
    await this.deps.store.models.SettingsHistory.create(
      {
        guildId,
        actorId: record.actor.userId,
        actorName: record.actor.name,
        kind: record.kind,
        summary: record.summary.slice(0, 300),
        changes: record.changes,
        snapshot,
        version,
        createdAt: this.deps.clock.now(),
      },
      { transaction },
    );
  }

  private async load(guildId: string): Promise<StoredSettings> {
    const row = await this.deps.store.models.GuildSettings.findByPk(guildId);
    if (!row) return { settings: { ...SETTINGS_DEFAULTS }, apiKeySealed: null, version: 0 };
    const document = row.data as unknown as StoredDocument;
    return {
      settings: this.merge(guildId, document.values ?? {}),
      apiKeySealed: typeof document.apiKeySealed === 'string' ? document.apiKeySealed : null,
      version: row.version,
    };
  }

  /**
   * Stored values over the defaults. A value that no longer passes its field's schema (a range
   * narrowed in a later version) falls back to the default and is logged, rather than breaking the guild.
   */
  private merge(guildId: string, values: Record<string, unknown>): GuildSettings {
    const merged: Record<string, unknown> = { ...SETTINGS_DEFAULTS };
    const shape = GuildSettingsSchema.shape as Record<string, import('zod').ZodType>;
    for (const [key, value] of Object.entries(values)) {
      const field = shape[key];
      if (!field) continue;
      const parsed = field.safeParse(value);
      if (parsed.success) merged[key] = parsed.data;
      else this.deps.logger.warn({ guildId, field: key }, 'stored setting no longer valid; using its default');
    }
    return merged as GuildSettings;
  }
}
