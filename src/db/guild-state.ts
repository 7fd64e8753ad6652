import type { Clock } from '../core/clock';
import type { Store } from './store';

/** The keys of guild_state and what each holds. */
export interface GuildStateValues {
  /** The rules message the bot posted for verification; `missing` once it was deleted in Discord. */
  rulesMessage: { channelId: string; messageId: string; missing: boolean };
  /** When the bot last saw the guild (ISO): joins after it are caught up on at start. */
  lastSeenAt: string;
  /** The sandbox's demo history was written for this guild: its seed and where its month ends (ISO). */
  demoHistory: { seed: number; anchor: string };
}
export type GuildStateKey = keyof GuildStateValues;

/**
 * Small per-guild facts the bot keeps between runs, one JSON value per key. Reads are cached (a
 * reaction checks the rules message id on every event); this process's writes keep the cache true.
 */
export class GuildStateStore {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { store: Store; clock: Clock }) {}

  /** The value of `key` for the guild, or null. */
  get<K extends GuildStateKey>(guildId: string, key: K): Promise<GuildStateValues[K] | null> {
    const cacheKey = `${guildId}:${key}`;
    let pending = this.cache.get(cacheKey);
    if (!pending) {
      pending = this.deps.store.models.GuildState.findOne({ where: { guildId, key } }).then((row) => (row ? row.value : null));
      this.cache.set(cacheKey, pending);
      pending.catch(() => this.cache.delete(cacheKey));
    }
    return pending as Promise<GuildStateValues[K] | null>;
  }

  /** Sets `key` for the guild. */
  async set<K extends GuildStateKey>(guildId: string, key: K, value: GuildStateValues[K]): Promise<void> {
    this.cache.delete(`${guildId}:${key}`);
    await this.deps.store.models.GuildState.upsert({ guildId, key, value, updatedAt: this.deps.clock.now() });
    this.cache.set(`${guildId}:${key}`, Promise.resolve(value));
  }

  /** Sets `key` for many guilds at once. */
  async setMany<K extends GuildStateKey>(guildIds: readonly string[], key: K, value: GuildStateValues[K]): Promise<void> {
    if (guildIds.length === 0) return;
    for (const guildId of guildIds) this.cache.delete(`${guildId}:${key}`);
    const updatedAt = this.deps.clock.now();
    await this.deps.store.models.GuildState.bulkCreate(
      guildIds.map((guildId) => ({ guildId, key, value, updatedAt })),
      { updateOnDuplicate: ['value', 'updatedAt'] },
    );
  }

  /** Forgets `key` for the guild. */
  async delete(guildId: string, key: GuildStateKey): Promise<void> {
    this.cache.delete(`${guildId}:${key}`);
    await this.deps.store.models.GuildState.destroy({ where: { guildId, key } });
  }
}
