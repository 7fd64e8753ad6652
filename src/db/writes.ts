// How long a write may wait, on either dialect: LOCK_WAIT_MS from when it was asked, whatever it
// waited for (its turn, a pooled connection, the lock), and then it is refused as the store being
// busy. A model's write outside a transaction runs as a transaction of its own, so it waits like
// any other write (on SQLite it takes a turn; on PostgreSQL it gets what is left of the wait).
import { performance } from 'node:perf_hooks';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { StoreUnavailable } from '../core/errors';
import { LOCK_WAIT_MS } from './locks';

/** sequelize.query as this module calls it. */
export type QueryCall = (sql: unknown, options?: { transaction?: Transaction | null; type?: string }) => Promise<unknown>;

/** Statements that change rows, by the type Sequelize's models give them. */
const WRITE_TYPES = new Set<string>([QueryTypes.INSERT, QueryTypes.UPDATE, QueryTypes.UPSERT, QueryTypes.BULKUPDATE, QueryTypes.DELETE, QueryTypes.BULKDELETE]);

/** When a write asked now has waited long enough, in performance.now() ms. */
export function writeDeadline(): number {
  return performance.now() + LOCK_WAIT_MS;
}

/** What is left of a write's wait until `deadline`, in whole ms (0 or less once it has passed). */
export function msLeft(deadline: number): number {
  return Math.ceil(deadline - performance.now());
}

/** What is left of a write's wait, in whole ms (at least 1); throws StoreUnavailable('busy') when nothing is. */
export function waitLeftMs(deadline: number): number {
  const left = msLeft(deadline);
  if (left <= 0) throw new StoreUnavailable('busy');
  return left;
}

/** Makes a model's write outside a transaction run as a transaction of its own (sequelize.transaction, as the store set it up). */
export function writesAsTransactions(sequelize: Sequelize): void {
  const original = sequelize.query.bind(sequelize) as QueryCall;
  const query: QueryCall = (sql, options) =>
    !options?.transaction && WRITE_TYPES.has(options?.type ?? '')
      ? sequelize.transaction((own) => original(sql, { ...options, transaction: own }))
      : original(sql, options);
  sequelize.query = query as unknown as Sequelize['query'];
}
