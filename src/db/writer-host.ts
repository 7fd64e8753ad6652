// The store writer's side of src/db/writer.ts, run in its worker thread (src/writer.ts): a
// connection of its own to the store (sqlite3 on the SQLite file, a pg client on PostgreSQL), and
// the jobs asked, each in a transaction, one after another. Loads neither Sequelize nor discord.js.
import { parentPort, workerData } from 'node:worker_threads';
import type { Client as PgClient } from 'pg';
import type { Database as SqliteDatabase } from 'sqlite3';
import { LOCK_WAIT_MS } from './locks';
import type { SqlParam, SqlSession } from './sql';
import { sqliteFile } from './url';
import { sendError, type JobsOf, type WriteJobs, type WriterReply, type WriterRequest } from './writer-protocol';

/** The writer's connection: transactions one at a time. */
interface WriterConnection {
  /** Runs `work` in a transaction that waits for a lock no later than `deadline` (performance.now() ms). */
  transaction<T>(work: (session: SqlSession) => Promise<T>, deadline: number): Promise<T>;
  close(): Promise<void>;
}

/**
 * How long a job may still wait for a lock: LOCK_WAIT_MS counts from when the job was asked, so a
 * job that waited behind another has only what is left (two jobs queued during a held lock are
 * refused after 5 s each, not 5 and 10). Throws the dialect's own "busy" error when nothing is left.
 */
function waitLeftMs(deadline: number, busy: { code: string; message: string }): number {
  const left = Math.ceil(deadline - performance.now());
  if (left <= 0) throw Object.assign(new Error(busy.message), { code: busy.code });
  return left;
}

/** Runs `work` between BEGIN and COMMIT on `session`; rolls back what fails, and throws it. */
async function inTransaction<T>(session: SqlSession, begin: string, work: (session: SqlSession) => Promise<T>): Promise<T> {
  await session.query(begin);
  try {
    const result = await work(session);
    await session.query('COMMIT');
    return result;
  } catch (error) {
    await session.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The SQLite file, opened read-write (the product's store made it and set its write-ahead log). */
async function openSqlite(file: string): Promise<WriterConnection> {
  const { default: sqlite3 } = await import('sqlite3');
  const db = await new Promise<SqliteDatabase>((resolve, reject) => {
    const opened: SqliteDatabase = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (error) => (error ? reject(error) : resolve(opened)));
  });
  // Waits for the product's own transactions as they wait for this one.
  db.configure('busyTimeout', LOCK_WAIT_MS);
  const session: SqlSession = {
    dialect: 'sqlite',
    // $1, $2... become ?1, ?2..., which sqlite3 binds by position.
    query: <R extends object>(sql: string, params: readonly SqlParam[] = []) =>
      new Promise<R[]>((resolve, reject) =>
        db.all(sql.replace(/\$(\d+)/g, '?$1'), [...params], (error: Error | null, rows: R[]) => (error ? reject(error) : resolve(rows))),
      ),
  };
  await session.query('PRAGMA foreign_keys = ON');
  return {
    // IMMEDIATE takes the write lock at once, as the product's own SQLite transactions do, waiting
    // for it (SQLite's busy timeout) for what is left of the job's wait.
    transaction: async (work, deadline) => {
      db.configure(
        'busyTimeout',
        waitLeftMs(deadline, { code: 'SQLITE_BUSY', message: 'SQLITE_BUSY: the jobs before this one used up its wait for the lock' }),
      );
      return inTransaction(session, 'BEGIN IMMEDIATE', work);
    },
    close: () => new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A PostgreSQL client, connected again for the next transaction after its connection is lost. */
async function openPostgres(url: string): Promise<WriterConnection> {
  const { default: pg } = await import('pg');
  let client: PgClient | null = null;
  const connect = async (): Promise<PgClient> => {
    if (client) return client;
    // The same waits as the product's own pool (src/db/store.ts).
    const fresh = new pg.Client({ connectionString: url, connectionTimeoutMillis: LOCK_WAIT_MS, lock_timeout: LOCK_WAIT_MS });
    fresh.on('error', () => {
      if (client === fresh) client = null;
    });
    await fresh.connect();
    client = fresh;
    return fresh;
  };
  await connect();
  return {
    async transaction(work, deadline) {
      const left = waitLeftMs(deadline, { code: '55P03', message: 'lock_timeout: the jobs before this one used up its wait for a lock' });
      const connected = await connect();
      const session: SqlSession = {
        dialect: 'postgres',
        query: async <R extends object>(sql: string, params: readonly SqlParam[] = []) => (await connected.query(sql, [...params])).rows as R[],
      };
      try {
        return await inTransaction(session, 'BEGIN', async (inside) => {
          // For this transaction only: each lock wait is bounded by what is left of the job's.
          await inside.query("SELECT set_config('lock_timeout', $1, true)", [String(left)]);
          return work(inside);
        });
      } catch (error) {
        // A connection that failed (no SQLSTATE: the socket; class 08 or 57: the server) is not used again.
        const code = String((error as { code?: unknown }).code ?? '');
        if (!/^[0-9A-Z]{5}$/.test(code) || code.startsWith('08') || code.startsWith('57')) {
          if (client === connected) client = null;
          void connected.end().catch(() => undefined);
        }
        throw error;
      }
    },
    async close() {
      await client?.end();
      client = null;
    },
  };
}

/** The connection for the store at `url`. */
function openConnection(url: string): Promise<WriterConnection> {
  const file = sqliteFile(url);
  return file === null ? openPostgres(url) : openSqlite(file);
}

/**
 * Serves the product's write jobs on this worker thread until asked to close: opens the connection
 * (answering whether it could), then runs each job asked in a transaction of its own, in order.
 */
export async function serveWrites<Jobs extends JobsOf<Jobs>>(named: Jobs): Promise<void> {
  const jobs: WriteJobs = named;
  const port = parentPort;
  if (!port) throw new Error('the store writer runs in a worker thread (src/db/writer.ts starts it)');
  const post = (reply: WriterReply) => port.postMessage(reply);
  let connection: WriterConnection;
  try {
    connection = await openConnection((workerData as { url: string }).url);
  } catch (error) {
    post({ ready: false, error: sendError(error) });
    port.close();
    return;
  }
  let queue = Promise.resolve();
  port.on('message', (request: WriterRequest) => {
    const deadline = performance.now() + LOCK_WAIT_MS;
    queue = queue.then(async () => {
      if ('close' in request) {
        await connection.close().catch(() => undefined);
        port.close();
        return;
      }
      const job = jobs[request.job] as ((session: SqlSession, input: unknown) => Promise<unknown>) | undefined;
      try {
        if (!job) throw new Error(`the store writer has no job ${request.job}`);
        post({ id: request.id, output: await connection.transaction((session) => job(session, request.input), deadline) });
      } catch (error) {
        post({ id: request.id, error: sendError(error) });
      }
    });
  });
  post({ ready: true });
}
