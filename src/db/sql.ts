// Plain SQL for the write-behind writes (XP and coin flushes, activity counts), run through an
// SqlSession: one open transaction on either dialect, whether Sequelize runs it on the main thread
// (src/db/session.ts) or a driver in the store writer's thread (src/db/writer-host.ts). Nothing
// here loads Sequelize or a driver: the writer's thread imports it.
//
// Many rows go into one statement as one parameter, a JSON array that the database reads as a
// table (json_each on SQLite, json_to_recordset on PostgreSQL): the statement's text stays a few
// hundred bytes whatever the number of rows, no value is ever written into SQL, and the thread that
// runs it allocates next to nothing (the JSON is made once, by the thread that holds the rows). A
// flush of 5,000 members as literal VALUES was 500 KB of SQL per table to build, escape and parse.

/** The two dialects of the store. */
export type Dialect = 'sqlite' | 'postgres';

/** A bound parameter's value. */
export type SqlParam = string | number | null;

/** One open transaction: statements run in it, in the order asked. */
export interface SqlSession {
  readonly dialect: Dialect;
  /** Runs one statement, `$1`, `$2`... in its text standing for `params`; answers the rows it returns (a SELECT, or RETURNING). */
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<R[]>;
}

/** An instant as both dialects store it and as Sequelize writes it: `2026-11-22 05:06:07.123 +00:00`. */
export function storedInstant(at: Date | number): string {
  return new Date(at).toISOString().replace('T', ' ').replace('Z', ' +00:00');
}

/** A parameter holding an instant (see storedInstant), typed for the dialect. */
export function instantParam(dialect: Dialect, param: string): string {
  return dialect === 'postgres' ? `${param}::timestamptz` : param;
}

/** The SQL type of a JSON rows' field. */
export type JsonField = 'text' | 'integer';

/** JSON rows as a table: what follows FROM, and each field as an expression. */
export interface JsonRows<F extends string> {
  /** `FROM ${rows.from}`: the rows, aliased `j`. */
  from: string;
  /** The fields as SQL expressions of their type. */
  field: Record<F, string>;
}

/** Rows as the JSON that jsonRows reads: each object with only these fields. */
export function jsonOf<F extends string>(rows: readonly Partial<Record<F, SqlParam>>[], fields: Record<F, JsonField>): string {
  return JSON.stringify(rows, Object.keys(fields));
}

/**
 * The JSON array of objects bound to `param` (made by jsonOf with the same fields) as a table of
 * `fields`. On SQLite, a SELECT from it followed by
 * ON CONFLICT needs a WHERE (SQLite's parser asks for one; `WHERE true` will do).
 */
export function jsonRows<F extends string>(dialect: Dialect, param: string, fields: Record<F, JsonField>): JsonRows<F> {
  const names = Object.keys(fields) as F[];
  if (dialect === 'postgres') {
    return {
      from: `json_to_recordset(${param}::json) AS j(${names.map((name) => `"${name}" ${fields[name]}`).join(', ')})`,
      field: Object.fromEntries(names.map((name) => [name, `j."${name}"`])) as Record<F, string>,
    };
  }
  return {
    from: `json_each(${param}) AS j`,
    field: Object.fromEntries(names.map((name) => [name, `(j.value ->> '${name}')`])) as Record<F, string>,
  };
}

/** What `together` resolves to: each statement's result, in order. */
type Results<T extends readonly (() => Promise<unknown>)[]> = { -readonly [K in keyof T]: T[K] extends () => Promise<infer R> ? R : never };

/**
 * Runs statements of one transaction that do not need each other's results. On SQLite they are
 * sent at once: the driver queues them on the transaction's connection, and their round trips
 * through the event loop overlap. On PostgreSQL they go one after another: node-postgres
 * deprecates a query sent while its client is still busy with another.
 */
export async function together<T extends readonly (() => Promise<unknown>)[]>(session: Pick<SqlSession, 'dialect'>, statements: T): Promise<Results<T>> {
  if (session.dialect === 'sqlite') {
    // Every statement settles before a failure is thrown: the caller's ROLLBACK goes out after
    // them. Thrown at the first failure, the ROLLBACK could run while the others still waited in
    // the driver's queue, and those would then commit on their own, outside the transaction.
    const settled = await Promise.allSettled(statements.map((run) => run()));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as Results<T>;
  }
  const results: unknown[] = [];
  for (const run of statements) results.push(await run());
  return results as Results<T>;
}
