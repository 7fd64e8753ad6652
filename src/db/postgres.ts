// How the product's thread uses PostgreSQL through Sequelize: two pools, and how long a write may
// wait for a lock held elsewhere.
//
// A statement waiting for a lock holds its pooled connection. With one pool for everything, ten
// writes waiting for a table locked by another client held all ten connections, and every read
// (the health check too) waited for one to come back: 4.6 s. And a write that first waited for a
// connection then waited lock_timeout for the lock: refused after 10 s. So reads outside a
// transaction have a pool of their own (Sequelize's read replication, both pools on the one
// server), and a transaction waits for its locks only for what is left of LOCK_WAIT_MS since it
// was asked, its wait for a connection counted.
import type { Options, Sequelize, Transaction, TransactionOptions } from 'sequelize';
import { LOCK_WAIT_MS } from './locks';
import { waitLeftMs, writeDeadline } from './writes';

type Work = (transaction: Transaction) => Promise<unknown>;
type TransactionCall = (options?: TransactionOptions, run?: Work) => Promise<unknown>;

/**
 * Sequelize options for PostgreSQL at `url` (with `logging`). Each pool holds at most five
 * connections, ten in all as one pool had before: the connections a process takes from the server
 * are unchanged, and a write (or read) that cannot get one within LOCK_WAIT_MS is refused as busy.
 * A lock held elsewhere fails a statement after the same wait as SQLite's busy timeout, and a
 * server that does not answer fails a connection in as long, rather than a request hanging.
 */
export function postgresOptions(logging: Options['logging']): Options {
  return {
    dialect: 'postgres',
    logging,
    // Both pools connect to the server of the URL (empty entries take the URL's settings).
    replication: { read: [{}], write: {} },
    pool: { max: 5, min: 0, idle: 10_000, acquire: LOCK_WAIT_MS },
    dialectOptions: { lock_timeout: LOCK_WAIT_MS, connectionTimeoutMillis: LOCK_WAIT_MS },
  };
}

/**
 * Bounds each transaction's lock waits by what is left of its LOCK_WAIT_MS once it has its
 * connection (SET LOCAL lock_timeout: for that transaction only). A savepoint inside one keeps the
 * outer transaction's setting.
 */
export function preparePostgres(sequelize: Sequelize): void {
  const original = sequelize.transaction.bind(sequelize) as TransactionCall;
  const bound = async (transaction: Transaction, deadline: number) => {
    await sequelize.query(`SET LOCAL lock_timeout = ${waitLeftMs(deadline)}`, { transaction });
  };
  const bounded = (optionsOrRun?: TransactionOptions | Work, maybeRun?: Work) => {
    const options = typeof optionsOrRun === 'function' ? undefined : optionsOrRun;
    const work = typeof optionsOrRun === 'function' ? optionsOrRun : maybeRun;
    if (options?.transaction) return original(options, work);
    const deadline = writeDeadline();
    if (work) {
      return original(options, async (transaction) => {
        await bound(transaction, deadline);
        return work(transaction);
      });
    }
    // Unmanaged (Sequelize's own findOrCreate opens one): bounded before it is handed out.
    return (original(options) as Promise<Transaction>).then(async (transaction) => {
      try {
        await bound(transaction, deadline);
      } catch (error) {
        await transaction.rollback().catch(() => undefined);
        throw error;
      }
      return transaction;
    });
  };
  sequelize.transaction = bounded as unknown as Sequelize['transaction'];
}
