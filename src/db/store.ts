import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Sequelize, Transaction as SqlTransaction, type Options } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from '../logger';
import { MIGRATIONS } from './migrations';
import { Announcement, ModerationLog, ReactionRole } from './models/Community';
import { ShopItem, Transaction } from './models/Economy';
import { MemberActivity, UserCurrency, UserInventory, UserLevel } from './models/Member';
import { Server } from './models/Server';
import { ServerSettings } from './models/ServerSettings';
import { Session } from './models/Session';
import { CommandUsage, GuildDailyStats } from './models/Stats';
import { User } from './models/User';

/** Every model, in one place, so a store binds them all. */
export const models = {
  User, Session, Server, ServerSettings, UserCurrency, UserLevel, UserInventory, MemberActivity,
  ShopItem, Transaction, ReactionRole, Announcement, ModerationLog, CommandUsage, GuildDailyStats,
};
export type Models = typeof models;

/** The opened store: the connection, the bound models, and its lifecycle. */
export interface Store {
  sequelize: Sequelize;
  dialect: 'sqlite' | 'postgres';
  models: Models;
  /** Applies pending migrations; returns the names applied. Safe to call repeatedly. */
  migrate(): Promise<string[]>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** How long a SQLite writer waits for the lock before failing, in ms. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

interface SqliteConnection {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string, callback: (error: Error | null) => void): void;
}

/** Sequelize options for a `sqlite:` or `postgres://` URL. */
function sequelizeOptions(url: string, logger?: Logger): Options {
  const logging = logger ? (sql: string) => logger.trace({ sql }, 'sql') : false;
  if (url.startsWith('sqlite:')) {
    const storage = url.slice('sqlite:'.length).replace(/^\/\//, '') || ':memory:';
    if (storage !== ':memory:') mkdirSync(path.dirname(path.resolve(storage)), { recursive: true });
    // IMMEDIATE takes the write lock when a transaction starts, so two writers queue on the
    // busy timeout instead of deadlocking when both upgrade from read to write.
    return { dialect: 'sqlite', storage, logging, transactionType: SqlTransaction.TYPES.IMMEDIATE };
  }
  return { dialect: 'postgres', logging, pool: { max: 10, min: 0, idle: 10_000 } };
}

/**
 * Opens the store at `url` and binds the models to it. One store per process: models are
 * module-level classes. Does not migrate; call `migrate()`.
 */
export async function openStore(url: string, logger?: Logger): Promise<Store> {
  const options = sequelizeOptions(url, logger);
  const sequelize = options.dialect === 'sqlite' ? new Sequelize(options) : new Sequelize(url, options);
  const dialect = options.dialect === 'sqlite' ? 'sqlite' : 'postgres';
  if (dialect === 'sqlite') configureSqliteConnections(sequelize);
  for (const model of Object.values(models)) model.initModel(sequelize);
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
    models,
    async migrate() {
      const applied = await umzug.up();
      if (applied.length) logger?.info({ migrations: applied.map((m) => m.name) }, 'store migrated');
      return applied.map((migration) => migration.name);
    },
    async ping() {
      try {
        await sequelize.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => sequelize.close(),
  };
}

/**
 * Sequelize's SQLite dialect opens one connection per transaction and fires no connect hook,
 * so each new connection gets its busy timeout here.
 */
function configureSqliteConnections(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: unknown): Promise<SqliteConnection>;
  };
  const original = manager.getConnection.bind(manager);
  const configured = new WeakSet<SqliteConnection>();
  manager.getConnection = async (options) => {
    const connection = await original(options);
    if (!configured.has(connection)) {
      connection.configure('busyTimeout', SQLITE_BUSY_TIMEOUT_MS);
      configured.add(connection);
    }
    return connection;
  };
}
