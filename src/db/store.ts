import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Mutex } from 'async-mutex';
import { QueryTypes, Sequelize, Transaction as SqlTransaction, type Options, type TransactionOptions } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from '../logger';
import { MIGRATIONS } from './migrations';
import { RowCache } from './row-cache';
import { LOCK_WAIT_MS } from './locks';
import { sqliteFile } from './url';
import { Announcement, GuildState, ModerationLog, ModerationReport, ReactionRole, ReactionRoleEvent, WelcomeLog } from './models/Community';
import { LevelReward, ShopItem, Transaction } from './models/Economy';
import { MemberActivity, UserCurrency, UserInventory, UserLevel } from './models/Member';
import { Account } from './models/Account';
import { Session } from './models/Session';
import { AppSetting, DashboardGrant, GuildSettings, SettingsHistory, WebhookDelivery } from './models/Settings';
import { CommandUsage, GuildDailyStats } from './models/Stats';

/** Every model, in one place; each store binds its own subclasses of them. */
export const models = {
  Account, Session, GuildSettings, SettingsHistory, AppSetting, DashboardGrant, WebhookDelivery,
  UserCurrency, UserLevel, UserInventory, MemberActivity, ShopItem, Transaction, ReactionRole, ReactionRoleEvent,
  Announcement, WelcomeLog, GuildState, ModerationLog, ModerationReport, CommandUsage, GuildDailyStats, LevelReward,
};
export type Models = typeof models;

/** The opened store: the connection, the bound models, and its lifecycle. */
export interface Store {
  sequelize: Sequelize;
  dialect: 'sqlite' | 'postgres';
  models: Models;
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


interface SqliteConnection {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string, callback: (error: Error | null) => void): void;
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
  // A lock held elsewhere fails a statement after the same wait as SQLite's busy timeout, and a
  // server that does not answer fails a connection in as long, rather than a request hanging.
  return {
    dialect: 'postgres',
    logging,
    pool: { max: 10, min: 0, idle: 10_000 },
    dialectOptions: { lock_timeout: LOCK_WAIT_MS, connectionTimeoutMillis: LOCK_WAIT_MS },
  };
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
  if (dialect === 'sqlite') {
    configureSqliteConnections(sequelize);
    serializeSqliteTransactions(sequelize);
  }
  const boundModels = bindModels(sequelize);
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
    cached: { accounts: new RowCache(boundModels.Account), sessions: new RowCache(boundModels.Session) },
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
    async sizeBytes() {
      if (dialect === 'postgres') {
        const [row] = await sequelize.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes', { type: QueryTypes.SELECT });
        return Number(row?.bytes ?? 0);
      }
      const file = sqliteFile(url) ?? ':memory:';
      if (file !== ':memory:') return (await fileBytes(file)) + (await fileBytes(`${file}-wal`));
      const [pages] = await sequelize.query<{ bytes: number }>('SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()', { type: QueryTypes.SELECT });
      return Number(pages?.bytes ?? 0);
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
      connection.configure('busyTimeout', LOCK_WAIT_MS);
      configured.add(connection);
    }
    return connection;
  };
}

/**
 * SQLite has one writer at a time, and Sequelize gives an in-memory database one shared connection
 * for every transaction, so two transactions started at once interleave their BEGIN and COMMIT
 * ("cannot commit - no transaction is active"). On a file, a hundred writers each waiting on the
 * busy timeout hold sqlite3's few worker threads while the lock's holder waits for one. So the
 * process runs its SQLite transactions one after another, in the order asked; PostgreSQL keeps its
 * pool and row locks. A transaction opened inside another is a bug (it would wait for itself), and
 * says so.
 */
function serializeSqliteTransactions(sequelize: Sequelize): void {
  const mutex = new Mutex();
  // Telling a nested transaction from a concurrent one needs the async context, and on Node 20 one
  // AsyncLocalStorage.run() turns on promise hooks for every promise in the process for good, about
  // a tenth of the HTTP stack's and the gateway's throughput. So the check runs under the tests
  // (NODE_ENV=test, which exercise every transaction the product opens), not in production.
  const inside = process.env.NODE_ENV === 'test' ? new AsyncLocalStorage<true>() : undefined;
  const original = sequelize.transaction.bind(sequelize) as (options?: TransactionOptions, run?: (t: SqlTransaction) => Promise<unknown>) => Promise<unknown>;
  const refuseNested = () => {
    if (inside?.getStore()) throw new Error('A transaction was opened inside another; pass the outer transaction instead.');
  };
  const queued = (optionsOrRun?: TransactionOptions | ((t: SqlTransaction) => Promise<unknown>), maybeRun?: (t: SqlTransaction) => Promise<unknown>) => {
    const options = typeof optionsOrRun === 'function' ? undefined : optionsOrRun;
    const run = typeof optionsOrRun === 'function' ? optionsOrRun : maybeRun;
    if (options?.transaction) return original(options, run);
    refuseNested();
    if (run) return mutex.runExclusive(() => (inside ? inside.run(true, () => original(options, run)) : original(options, run)));
    // Unmanaged (Sequelize's own findOrCreate opens one): the lock is held until commit or rollback.
    return mutex.acquire().then(async (release) => {
      let released = false;
      const releaseOnce = () => {
        if (!released) {
          released = true;
          release();
        }
      };
      try {
        const transaction = (await original(options)) as SqlTransaction;
        for (const end of ['commit', 'rollback'] as const) {
          const finish = transaction[end].bind(transaction);
          transaction[end] = () => finish().finally(releaseOnce);
        }
        return transaction;
      } catch (error) {
        releaseOnce();
        throw error;
      }
    });
  };
  sequelize.transaction = queued as unknown as Sequelize['transaction'];
}
