// Another program holding SQLite's write lock, and a way to see the product's writes waiting for
// it. Not a test file: the store tests (test/ops, src/db) use it.
import { QueryTypes } from 'sequelize';
import sqlite3 from 'sqlite3';
import type { Store } from '../../src/db/store';

/** Runs one statement on a raw sqlite3 connection. */
export function run(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, (error: Error | null) => (error ? reject(error) : resolve())));
}

/** Holds the SQLite file's write lock from a connection of its own (BEGIN IMMEDIATE), as another program would, until released. */
export async function lockFile(file: string): Promise<{ release(): Promise<void> }> {
  const other = new sqlite3.Database(file);
  await run(other, 'BEGIN IMMEDIATE');
  return {
    async release() {
      await run(other, 'ROLLBACK');
      await new Promise<void>((resolve) => other.close(() => resolve()));
    },
  };
}

const WRITE_TYPES = new Set<string>([QueryTypes.INSERT, QueryTypes.UPDATE, QueryTypes.UPSERT, QueryTypes.BULKUPDATE, QueryTypes.DELETE, QueryTypes.BULKDELETE]);

/**
 * Counts the store's statements that write or belong to a transaction, sent and not answered yet
 * (through Sequelize's query hooks). While another program holds SQLite's write lock, each is a
 * write waiting for it: a transaction's first statement takes the lock.
 */
export function watchWrites(store: Store): { waiting(): number; stop(): void } {
  let inFlight = 0;
  const counts = (options: { transaction?: unknown; type?: string }) => Boolean(options.transaction) || WRITE_TYPES.has(options.type ?? '');
  const name = `watchWrites-${Math.random()}`;
  store.sequelize.addHook('beforeQuery', name, (options) => {
    if (counts(options as { transaction?: unknown; type?: string })) inFlight += 1;
  });
  store.sequelize.addHook('afterQuery', name, (options) => {
    if (counts(options as { transaction?: unknown; type?: string })) inFlight -= 1;
  });
  return {
    waiting: () => inFlight,
    stop: () => {
      store.sequelize.removeHook('beforeQuery', name);
      store.sequelize.removeHook('afterQuery', name);
    },
  };
}
