import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/**
 * Values per statement. The values are written into the SQL as literals, escaped by the dialect
 * (Sequelize's replacements would scan the whole statement for placeholders again, and bind
 * parameters are worse: SQLite looks each named parameter up by a linear scan, so a 12,000-parameter
 * statement took seconds). Statements are large (5,000 rows of 8 values, about 500 KB of SQL): each
 * one is a round trip through the event loop, and while the bot ingests chat at full speed a turn of
 * the loop takes tens of milliseconds, so an XP flush of 5,000 members in 40 statements of 125 rows
 * took over a second to finish (the oldest accrual waited 2 s), in one statement per table about
 * 0.3 s.
 */
export const VALUES_PER_STATEMENT = 40_000;

/** The dialect's escaping, with each instant formatted once per statement (a flush stamps every row with one). */
function literals(sequelize: Sequelize): (value: unknown) => string {
  const dates = new Map<number, string>();
  return (value) => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (value instanceof Date) {
      const time = value.getTime();
      let text = dates.get(time);
      if (text === undefined) dates.set(time, (text = sequelize.escape(value)));
      return text;
    }
    return sequelize.escape(value as string);
  };
}

/** A multi-row INSERT: the table and its columns, the rows, and what follows VALUES. */
export interface RowsInsert<T> {
  /** The table and its quoted columns: `user_levels ("guildId", "userId")`. */
  into: string;
  rows: readonly T[];
  /** One row's values, in column order. */
  values: (row: T) => unknown[];
  /** ON CONFLICT ... and RETURNING ..., if any. */
  tail?: string;
}

/** Inserts rows a few hundred per statement; returns the rows RETURNING gives back. */
export async function insertRows<T, R extends object = Record<string, unknown>>(sequelize: Sequelize, insert: RowsInsert<T>, transaction: Transaction): Promise<R[]> {
  const { rows } = insert;
  if (rows.length === 0) return [];
  const width = insert.values(rows[0] as T).length;
  const perStatement = Math.max(1, Math.floor(VALUES_PER_STATEMENT / width));
  const literal = literals(sequelize);
  const returned: R[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const tuples = chunk.map((row) => `(${insert.values(row).map(literal).join(', ')})`);
    // The leading comment matters: Sequelize's SQLite dialect runs SQL that starts with
    // "insert into" without reading rows back, which RETURNING needs.
    const sql = `/* rows */ INSERT INTO ${insert.into} VALUES ${tuples.join(', ')} ${insert.tail ?? ''}`;
    if (insert.tail?.includes('RETURNING')) returned.push(...(await sequelize.query<R>(sql, { transaction, type: QueryTypes.SELECT })));
    else await sequelize.query(sql, { transaction });
  }
  return returned;
}

/** What `together` resolves to: each statement's result, in order. */
type Results<T extends readonly (() => Promise<unknown>)[]> = { -readonly [K in keyof T]: T[K] extends () => Promise<infer R> ? R : never };

/**
 * Runs statements of one transaction that do not need each other's results. On SQLite they are
 * sent at once: the driver queues them on the transaction's connection, and their round trips
 * through the event loop (tens of milliseconds each while chat runs at full speed) overlap. On
 * PostgreSQL they go one after another: node-postgres deprecates a query sent while its client is
 * still busy with another.
 */
export async function together<T extends readonly (() => Promise<unknown>)[]>(sequelize: Sequelize, statements: T): Promise<Results<T>> {
  if (sequelize.getDialect() === 'sqlite') return (await Promise.all(statements.map((run) => run()))) as Results<T>;
  const results: unknown[] = [];
  for (const run of statements) results.push(await run());
  return results as Results<T>;
}
