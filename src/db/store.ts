import { mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { QueryTypes, Sequelize, Transaction as SqlTransaction, type ModelStatic, type Options } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from '../logger';
import { MIGRATIONS } from './migrations';
import { RowCache } from './row-cache';
import { GuildScope, type GuildModel } from './scoped';
import { postgresOptions, preparePostgres } from './postgres';
import { prepareSqlite } from './sqlite';
import { sqliteFile } from './url';
import { writesAsTransactions } from './writes';
import { Announcement, GuildState, ModerationLog, ModerationReport, ReactionRole, ReactionRoleEvent, WelcomeLog } from './models/community';
import { LevelReward, ShopItem, Transaction } from './models/economy';
import { MemberActivity, UserCurrency, UserInventory, UserLevel } from './models/member';
import { Account } from './models/account';
import { Session } from './models/session';
import { ModerationAppeal } from './models/appeal';
import { RoleGrantRetry } from './models/role-grant';
import { MusicSession, MusicStation, MusicTrack } from './models/music';
import { RaidState } from './models/raid';
import { LevelBackup, XpAdjustment } from './models/level-backup';
import { RoleMenu } from './models/role-menu';
import { AppSetting, DashboardGrant, GuildSettings, Revision, SettingsHistory, WebhookDelivery } from './models/settings';
import { CommandUsage, GuildDailyStats } from './models/stats';

/** Every model, in one place; each store binds its own subclasses of them. */
export const models = {
  Account,
  Session,
  GuildSettings,
  SettingsHistory,
  AppSetting,
  DashboardGrant,
  WebhookDelivery,
  UserCurrency,
  UserLevel,
  UserInventory,
  MemberActivity,
  ShopItem,
  Transaction,
  ReactionRole,
  ReactionRoleEvent,
  Announcement,
  WelcomeLog,
  GuildState,
  ModerationLog,
  ModerationReport,
  ModerationAppeal,
  CommandUsage,
  GuildDailyStats,
  LevelReward,
  Revision,
  RoleGrantRetry,
  MusicTrack,
  MusicStation,
  MusicSession,
  RaidState,
  LevelBackup,
  XpAdjustment,
  RoleMenu,
};
export type Models = typeof models;

/** The models whose rows belong to one guild (they have a `guildId`). */
type GuildModelName = { [K in keyof Models]: InstanceType<Models[K]> extends GuildModel ? K : never }[keyof Models];

/**
 * One guild's rows of every guild-owned model, each query bound to the guild (GuildScope): what
 * features use by default, so no query reaches another guild's rows by a forgotten where clause.
 * The queries across guilds that must exist (what is due, what expired, start-up indexes) are named
 * in src/db/cross-guild.ts.
 */
export type GuildData = { readonly [K in GuildModelName]: GuildScope<InstanceType<Models[K]>> };

/** The bound models whose rows belong to one guild (a `guildId` attribute), found once per store. */
function guildModelsOf(bound: Models): [string, ModelStatic<GuildModel>][] {
  return (Object.entries(bound) as [string, ModelStatic<GuildModel>][]).filter(([, model]) => 'guildId' in model.getAttributes());
}

/** The guild-bound repositories of one guild. */
function guildData(guildModels: readonly [string, ModelStatic<GuildModel>][], guildId: string): GuildData {
  const data: Record<string, GuildScope<GuildModel>> = {};
  for (const [name, model] of guildModels) data[name] = new GuildScope(model, guildId);
  return data as unknown as GuildData;
}

/** The opened store: the connection, the bound models, and its lifecycle. */
export interface Store {
  sequelize: Sequelize;
  dialect: 'sqlite' | 'postgres';
  /** The models across guilds: the store's own modules and src/db/cross-guild.ts use them; features use `guild(id)`. */
  models: Models;
  /** One guild's rows (see GuildData). */
  guild(guildId: string): GuildData;
  /** Rows read on every signed-in request, kept for a moment (see RowCache). */
  cached: { accounts: RowCache<Account>; sessions: RowCache<Session> };
  /** Applies pending migrations; returns the names applied. Safe to call repeatedly. */
  migrate(): Promise<string[]>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  /** The database's size in bytes: the SQLite file and its write-ahead log, or pg_database_size on PostgreSQL. */
  sizeBytes(): Promise<number>;
  close(): Promise<void>;
}

/** Bytes of a file, 0 when it does not exist (a write-ahead log after a clean close). */
async function fileBytes(file: string): Promise<number> {
  return stat(file).then(
    (stats) => stats.size,
    () => 0,
  );
}

/** Sequelize options for a `sqlite:` or `postgres://` URL. */
function sequelizeOptions(url: string, logger?: Logger): Options {
  const logging = logger ? (sql: string) => logger.trace({ sql }, 'sql') : false;
  const storage = sqliteFile(url);
  if (storage !== null) {
    if (storage !== ':memory:') mkdirSync(path.dirname(path.resolve(storage)), { recursive: true });
    // IMMEDIATE takes the write lock when a transaction starts, so two writers queue on the
    // busy timeout instead of deadlocking when both upgrade from read to write.
    // Sequelize retries SQLITE_BUSY 5 times by default, each after the full busy timeout: a lock
    // held elsewhere would hold a request (and every transaction queued behind it) for 25 s. The
    // busy timeout already waits; one attempt, then the error is answered in words.
    return { dialect: 'sqlite', storage, logging, transactionType: SqlTransaction.TYPES.IMMEDIATE, retry: { max: 1 } };
  }
  return postgresOptions(logging);
}

/**
 * Subclasses of every model bound to one connection: two stores in one process (two products in a
 * test, like two processes on one database) each query their own database.
 */
function bindModels(sequelize: Sequelize): Models {
  const bound: Record<string, unknown> = {};
  for (const [name, model] of Object.entries(models)) {
    // A computed key keeps the class's name, which Sequelize uses as the model name.
    const Bound = { [name]: class extends (model as unknown as new () => object) {} }[name] as unknown as (typeof models)[keyof Models];
    Bound.initModel(sequelize);
    bound[name] = Bound;
  }
  return bound as unknown as Models;
}

/** Opens the store at `url` with its own bound models. Does not migrate; call `migrate()`. */
export async function openStore(url: string, logger?: Logger): Promise<Store> {
  const options = sequelizeOptions(url, logger);
  const sequelize = options.dialect === 'sqlite' ? new Sequelize(options) : new Sequelize(url, options);
  const dialect = options.dialect === 'sqlite' ? 'sqlite' : 'postgres';
  if (dialect === 'sqlite') prepareSqlite(sequelize, sqliteFile(url) !== ':memory:');
  else preparePostgres(sequelize);
  writesAsTransactions(sequelize);
  const boundModels = bindModels(sequelize);
  const guildModels = guildModelsOf(boundModels);
  await sequelize.authenticate();
  if (dialect === 'sqlite') await sequelize.query('PRAGMA journal_mode = WAL');

  const umzug = new Umzug({
    migrations: MIGRATIONS.map((migration) => ({ ...migration })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize }),
    logger: undefined,
  });

  return {
    sequelize,
    dialect,
    models: boundModels,
    guild: (guildId) => guildData(guildModels, guildId),
    cached: { accounts: new RowCache(boundModels.Account), sessions: new RowCache(boundModels.Session) },
    async migrate() {
      const applied = await umzug.up();
      if (applied.length) logger?.info({ migrations: applied.map((m) => m.name) }, 'store migrated');
      return applied.map((migration) => migration.name);
    },
    async ping() {
      try {
        // A read: it runs on the read connection (SQLite) or pool (PostgreSQL), so it answers while writes wait.
        await sequelize.query('SELECT 1', { type: QueryTypes.SELECT });
        return true;
      } catch {
        return false;
      }
    },
    async sizeBytes() {
      if (dialect === 'postgres') {
        const [row] = await sequelize.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes', { type: QueryTypes.SELECT });
        return Number(row?.bytes ?? 0);
      }
      const file = sqliteFile(url) ?? ':memory:';
      if (file !== ':memory:') return (await fileBytes(file)) + (await fileBytes(`${file}-wal`));
      const [pages] = await sequelize.query<{ bytes: number }>('SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()', {
        type: QueryTypes.SELECT,
      });
      return Number(pages?.bytes ?? 0);
    },
    close: () => sequelize.close(),
  };
}
