// How the product's thread uses SQLite through Sequelize: which connection runs what, and how long
// a write may wait for SQLite's one write lock.
//
// SQLite lets one connection write at a time, and another program (or the store writer's thread)
// may hold the lock. A statement waiting for it sleeps in SQLite's busy handler while holding its
// connection (sqlite3 runs one statement per connection at a time) and one of libuv's four pool
// threads. Sequelize runs every query outside a transaction on one connection, so a single write
// waiting there held up every read behind it, each of them holding a pool thread in turn, for up
// to the whole wait (a health check took 4.8 s). And a transaction waited for its turn in this
// process, then for the lock, each for up to LOCK_WAIT_MS (10 s for the second of two writes).
//
// So, on a file: reads outside a transaction have a connection of their own, which never writes
// (query_only) and so never waits for the lock: the write-ahead log lets it read while another
// connection writes. Every write takes a turn: transactions one after another on one write
// connection (a write outside a transaction is one of its own: src/db/writes.ts). A write waits at
// most LOCK_WAIT_MS from when it was asked, its turn and the lock together: the turn is waited for
// no longer than that, and the lock for what is left (SQLite's busy timeout).
import { AsyncLocalStorage } from 'node:async_hooks';
import { Mutex, withTimeout } from 'async-mutex';
import { QueryTypes, type Sequelize, type Transaction, type TransactionOptions } from 'sequelize';
import { StoreUnavailable } from '../core/errors';
import { LOCK_WAIT_MS } from './locks';
import { msLeft, waitLeftMs, writeDeadline, type QueryCall } from './writes';

/** What this module uses of a sqlite3 Database. */
interface SqliteConnection {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string, callback: (error: Error | null) => void): void;
  close(callback: (error: Error | null) => void): void;
}

/** The part of Sequelize's SQLite connection manager this module wraps. */
interface ConnectionManager {
  /** Sequelize's connections by key: 'default', a transaction's id, or ours. */
  connections: Record<string, SqliteConnection | undefined>;
  getConnection(options?: { uuid?: string; type?: string }): Promise<SqliteConnection>;
  releaseConnection(connection: SqliteConnection, force?: boolean): void;
  destroyConnection(connection: SqliteConnection): Promise<void>;
}

type Work = (transaction: Transaction) => Promise<unknown>;
type TransactionCall = (options?: TransactionOptions, run?: Work) => Promise<unknown>;

/** The key of the read connection among Sequelize's SQLite connections (a transaction's is its id). */
const READ_CONNECTION = 'reads';
/** The key of the connection the process's transactions share. */
const WRITE_CONNECTION = 'writes';

const run = (connection: SqliteConnection, sql: string) =>
  new Promise<void>((resolve, reject) => connection.run(sql, (error) => (error ? reject(error) : resolve())));

/**
 * The process's turns at writing: one transaction at a time, in the order asked, each waiting for
 * its turn no longer than its deadline. Knows the deadline of the transaction whose turn it is.
 */
class WriteTurns {
  private readonly mutex = new Mutex();
  private holder: number | null = null;

  /** Waits for the turn until `deadline` (see writeDeadline); answers its release, or throws StoreUnavailable('busy'). */
  async take(deadline: number): Promise<() => void> {
    const release = await withTimeout(this.mutex, waitLeftMs(deadline), new StoreUnavailable('busy')).acquire();
    if (msLeft(deadline) <= 0) {
      release();
      throw new StoreUnavailable('busy');
    }
    this.holder = deadline;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holder = null;
      release();
    };
  }

  /** What is left of the current turn's wait, in whole ms (at least 1): how long its first statement may wait for SQLite's lock. */
  remainingMs(): number {
    return this.holder === null ? LOCK_WAIT_MS : Math.max(1, msLeft(this.holder));
  }
}

/**
 * Sets the store's SQLite connections up as described above: `onFile` false for an in-memory
 * database, which is one connection that no other program sees (writes still take turns).
 */
export function prepareSqlite(sequelize: Sequelize, onFile: boolean): void {
  const turns = new WriteTurns();
  if (onFile) routeConnections(sequelize, turns);
  takeTurns(sequelize, turns);
  quietRollbacks(sequelize);
}

/**
 * A connection of this module's, kept by Sequelize's manager under `key` (so the store's close
 * closes it): opened and set up when first asked for; forgotten to open another.
 */
function ownConnection(
  manager: ConnectionManager,
  open: ConnectionManager['getConnection'],
  key: string,
  setUp: (connection: SqliteConnection) => Promise<void>,
) {
  let pending: Promise<SqliteConnection> | null = null;
  return {
    get(): Promise<SqliteConnection> {
      if (!pending) {
        const opening = open({ uuid: key }).then(async (connection) => {
          await setUp(connection);
          return connection;
        });
        opening.catch(() => {
          if (pending === opening) pending = null;
        });
        pending = opening;
      }
      return pending;
    },
    forget(): void {
      pending = null;
      delete manager.connections[key];
    },
  };
}

/**
 * Which connection a query runs on, on a file. Transactions, which take turns, share one write
 * connection (Sequelize would open one per transaction, and a fresh connection reads the schema
 * again before its first statement); its first statement waits for the lock for what is left of
 * the transaction's deadline. Reads outside a transaction go to the read connection; the rest
 * (migrations, PRAGMAs) to Sequelize's default one.
 */
function routeConnections(sequelize: Sequelize, turns: WriteTurns): void {
  const manager = sequelize.connectionManager as unknown as ConnectionManager;
  const original = {
    get: manager.getConnection.bind(manager),
    release: manager.releaseConnection.bind(manager),
    destroy: manager.destroyConnection.bind(manager),
  };
  const reads = ownConnection(manager, original.get, READ_CONNECTION, async (connection) => {
    // Readers meet SQLite's lock only for a moment (a write-ahead log being recovered).
    connection.configure('busyTimeout', LOCK_WAIT_MS);
    // A write sent here by mistake fails at once instead of waiting for the lock in front of every read.
    await run(connection, 'PRAGMA query_only = ON');
  });
  const writes = ownConnection(manager, original.get, WRITE_CONNECTION, async (connection) => {
    // Sequelize asks for this without waiting for it, and inside a transaction it would do nothing:
    // it must be in force before the first BEGIN.
    await run(connection, 'PRAGMA foreign_keys = ON');
  });
  let writing: SqliteConnection | null = null;
  const configured = new WeakSet<SqliteConnection>();
  manager.getConnection = async (options) => {
    // Sequelize asks with the transaction's id for its connection, and only for a transaction.
    if (options?.uuid) {
      writing = await writes.get();
      writing.configure('busyTimeout', turns.remainingMs());
      return writing;
    }
    if (options?.type === QueryTypes.SELECT) return reads.get();
    const connection = await original.get(options);
    if (!configured.has(connection)) {
      connection.configure('busyTimeout', LOCK_WAIT_MS);
      configured.add(connection);
    }
    return connection;
  };
  // A finished transaction leaves the write connection open for the next one.
  manager.releaseConnection = (connection, force) => (connection === writing ? undefined : original.release(connection, force));
  // One whose COMMIT or ROLLBACK failed is in a state nobody knows: it is closed, and the next transaction opens another.
  manager.destroyConnection = async (connection) => {
    if (connection !== writing) return original.destroy(connection);
    writes.forget();
    writing = null;
    await new Promise<void>((resolve) => connection.close(() => resolve()));
  };
}

/**
 * Runs the process's SQLite transactions one after another, in the order asked, each within
 * LOCK_WAIT_MS of when it was asked. An in-memory database is one connection for every
 * transaction, and two started at once would interleave their BEGIN and COMMIT; on a file, a
 * hundred transactions waiting for the lock at once would hold every pool thread. A transaction
 * opened inside another is a bug (it would wait for itself), and says so.
 */
function takeTurns(sequelize: Sequelize, turns: WriteTurns): void {
  // Telling a nested transaction from a concurrent one needs the async context, and on Node 20 one
  // AsyncLocalStorage.run() turns on promise hooks for every promise in the process for good, about
  // a tenth of the HTTP stack's and the gateway's throughput. So the check runs under the tests
  // (NODE_ENV=test, which exercise every transaction the product opens), not in production.
  const inside = process.env.NODE_ENV === 'test' ? new AsyncLocalStorage<true>() : undefined;
  const original = sequelize.transaction.bind(sequelize) as TransactionCall;
  const queued = (optionsOrRun?: TransactionOptions | Work, maybeRun?: Work) => {
    const options = typeof optionsOrRun === 'function' ? undefined : optionsOrRun;
    const work = typeof optionsOrRun === 'function' ? optionsOrRun : maybeRun;
    if (options?.transaction) return original(options, work);
    if (inside?.getStore()) throw new Error('A transaction was opened inside another; pass the outer transaction instead.');
    const deadline = writeDeadline();
    if (work) {
      return turns.take(deadline).then(async (release) => {
        try {
          return await (inside ? inside.run(true, () => original(options, work)) : original(options, work));
        } finally {
          release();
        }
      });
    }
    // Unmanaged (Sequelize's own findOrCreate opens one): the turn is held until commit or rollback.
    return turns.take(deadline).then(async (release) => {
      try {
        const transaction = (await original(options)) as Transaction;
        for (const end of ['commit', 'rollback'] as const) {
          const finish = transaction[end].bind(transaction);
          transaction[end] = () => finish().finally(release);
        }
        return transaction;
      } catch (error) {
        release();
        throw error;
      }
    });
  };
  sequelize.transaction = queued as unknown as Sequelize['transaction'];
}

/**
 * A ROLLBACK that finds no transaction is answered as done: SQLite already rolled it back (a BEGIN
 * that did not get the lock in time began nothing; a full disk or an I/O error ends the transaction
 * itself), and Sequelize would print its failure to the console, beside the one log line the
 * failure has.
 */
function quietRollbacks(sequelize: Sequelize): void {
  const original = sequelize.query.bind(sequelize) as QueryCall;
  const query: QueryCall = async (sql, options) => {
    if (typeof sql !== 'string' || !sql.startsWith('ROLLBACK')) return original(sql, options);
    try {
      return await original(sql, options);
    } catch (error) {
      if (error instanceof Error && /no transaction is active/.test(error.message)) return undefined;
      throw error;
    }
  };
  sequelize.query = query as unknown as Sequelize['query'];
}
