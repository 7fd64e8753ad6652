// A fingerprint of everything the store holds: each table's row count and a hash of its rows, so a
// test can say "nothing was written" without knowing which tables a route could touch.
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Store } from '../../src/db/store';

/** What a snapshot leaves out, and why: bookkeeping that changes on its own or on every request. */
export interface Ignored {
  table: string;
  why: string;
  /** Only these columns (the rest of the table counts). */
  columns?: string[];
  /** Only the rows this matches. */
  rows?: (row: Record<string, unknown>) => boolean;
}

/** Per table: how many rows, and a hash of them all. */
export type StoreSnapshot = Map<string, { count: number; hash: string }>;

/** The tables of the store, whatever the dialect answers (names, or { tableName }). */
async function tableNames(store: Store): Promise<string[]> {
  const tables = (await store.sequelize.getQueryInterface().showAllTables()) as unknown[];
  return tables.map((table) => (typeof table === 'string' ? table : String((table as { tableName: string }).tableName))).sort();
}

/** Counts and hashes every table's rows, in a stable order, leaving out what `ignored` names. */
export async function snapshotStore(store: Store, ignored: readonly Ignored[] = []): Promise<StoreSnapshot> {
  const snapshot: StoreSnapshot = new Map();
  for (const table of await tableNames(store)) {
    const rules = ignored.filter((rule) => rule.table === table);
    if (rules.some((rule) => !rule.columns && !rule.rows)) continue;
    const rows = await store.sequelize.query<Record<string, unknown>>(`SELECT * FROM "${table}"`, { type: QueryTypes.SELECT });
    const kept = rows
      .filter((row) => !rules.some((rule) => rule.rows?.(row) && !rule.columns))
      .map((row) => {
        const copy = { ...row };
        for (const rule of rules) if (rule.columns && (!rule.rows || rule.rows(row))) for (const column of rule.columns) delete copy[column];
        return JSON.stringify(copy);
      })
      .sort();
    snapshot.set(table, { count: kept.length, hash: createHash('sha256').update(kept.join('\n')).digest('hex') });
  }
  return snapshot;
}

/** The tables whose rows differ between two snapshots, in words ("moderation_logs: 3 rows -> 4"). */
export function storeChanges(before: StoreSnapshot, after: StoreSnapshot): string[] {
  const changes: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(table);
    const now = after.get(table);
    if (was?.hash === now?.hash && was?.count === now?.count) continue;
    changes.push(was?.count === now?.count ? `${table}: rows changed (${now?.count ?? 0} rows)` : `${table}: ${was?.count ?? 0} rows -> ${now?.count ?? 0}`);
  }
  return changes;
}
