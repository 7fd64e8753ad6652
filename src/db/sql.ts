import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/** Bind parameters per statement: far under SQLite's 32,766 and PostgreSQL's 65,535. */
const PARAMETERS_PER_STATEMENT = 12_000;

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

/**
 * A value as the driver should bind it: SQLite keeps dates as Sequelize writes them
 * ('YYYY-MM-DD HH:mm:ss.SSS +00:00'), so range queries compare like with like; PostgreSQL takes a Date.
 */
function bindable(dialect: string, value: unknown): unknown {
  if (!(value instanceof Date) || dialect !== 'sqlite') return value;
  const iso = value.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
}

/**
 * Inserts rows in as few statements as the parameter limit allows, with bind parameters (the driver
 * binds them: no escaping in JavaScript, the cost of a write-behind flush of thousands of members).
 * Returns the rows RETURNING gives back.
 */
export async function insertRows<T, R extends object = Record<string, unknown>>(sequelize: Sequelize, insert: RowsInsert<T>, transaction: Transaction): Promise<R[]> {
  const { rows } = insert;
  if (rows.length === 0) return [];
  const dialect = sequelize.getDialect();
  const width = insert.values(rows[0] as T).length;
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / width));
  const returned: R[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const bind: unknown[] = [];
    const tuples = rows.slice(start, start + perStatement).map((row) => {
      const placeholders = insert.values(row).map((value) => {
        bind.push(bindable(dialect, value));
        return `$${bind.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    // The leading comment matters: Sequelize's SQLite dialect runs SQL that starts with
    // "insert into" without reading rows back, which RETURNING needs.
    const sql = `/* rows */ INSERT INTO ${insert.into} VALUES ${tuples.join(', ')} ${insert.tail ?? ''}`;
    if (insert.tail?.includes('RETURNING')) returned.push(...(await sequelize.query<R>(sql, { bind, transaction, type: QueryTypes.SELECT })));
    else await sequelize.query(sql, { bind, transaction });
  }
  return returned;
}
