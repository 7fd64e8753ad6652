// The store writer: where the write-behind writes (the XP and coin flush, the activity counts) run
// their transactions. On a SQLite file or PostgreSQL, a worker thread of its own with its own
// connection (src/writer.ts): each statement of a transaction run from this thread waits for a turn
// of its event loop, and while the bot takes in chat at full speed a turn lasts tens of
// milliseconds, so a flush of five statements took up to a second and accruals waited longer than
// the second they are promised. In the worker a flush takes what its SQL takes. On an in-memory
// SQLite store (tests), which no other connection can see, the jobs run here, through Sequelize.
//
// A job is a plain function of an SqlSession and a plain input (copied to the worker), answering a
// plain output; the same functions run in both places.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../logger';
import { sequelizeSession } from './session';
import type { SqlSession } from './sql';
import { sqliteFile } from './url';
import { receivedError, type JobsOf, type WriterReply, type WriterRequest } from './writer-protocol';

type InputOf<J> = J extends (session: SqlSession, input: infer I) => Promise<unknown> ? I : never;
type OutputOf<J> = J extends (session: SqlSession, input: never) => Promise<infer O> ? O : never;

/** Runs write jobs, each in a transaction of its own, one after another in the order asked. */
export interface StoreWriter<Jobs extends JobsOf<Jobs>> {
  /** Runs a job; answers its output, or throws what failed it (its transaction rolled back). */
  run<K extends keyof Jobs & string>(job: K, input: InputOf<Jobs[K]>): Promise<OutputOf<Jobs[K]>>;
  /** Finishes the jobs asked, then stops (the worker thread and its connection). */
  close(): Promise<void>;
}

/** The jobs run on this thread, through Sequelize, each in a transaction of the store's. */
export function inlineWriter<Jobs extends JobsOf<Jobs>>(sequelize: Sequelize, jobs: Jobs): StoreWriter<Jobs> {
  return {
    run: (job, input) =>
      sequelize.transaction((transaction) =>
        (jobs[job] as unknown as (session: SqlSession, input: unknown) => Promise<OutputOf<Jobs[typeof job]>>)(sequelizeSession(sequelize, transaction), input),
      ),
    close: () => Promise.resolve(),
  };
}

/**
 * The writer's thread: writer.js beside the bundle this code is in (dist/server/main.js, the
 * benchmarks' bundle), or, where this runs as TypeScript under tsx (tests, tsx scripts),
 * src/writer.ts loaded through tsx, which a worker thread of Node 20 does not inherit.
 */
function startWorker(workerData: unknown): Worker {
  const options = { workerData, name: 'store writer' };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./writer.js', import.meta.url), options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('../writer.ts', import.meta.url).href);
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${entry}); });`, { ...options, eval: true });
}

/** How long close() waits for the worker to finish its jobs and close its connection. */
const CLOSE_WAIT_MS = 15_000;

/** Jobs posted to a worker thread, which is started again when it stops. */
class WorkerWriter<Jobs extends JobsOf<Jobs>> implements StoreWriter<Jobs> {
  private worker: Promise<Worker> | null = null;
  private readonly waiting = new Map<number, { resolve: (output: never) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  /** The worker, started when there is none; resolves once its connection is open. */
  started(): Promise<Worker> {
    this.worker ??= this.spawn().catch((error: unknown) => {
      this.worker = null;
      throw error;
    });
    return this.worker;
  }

  run<K extends keyof Jobs & string>(job: K, input: InputOf<Jobs[K]>): Promise<OutputOf<Jobs[K]>> {
    if (this.closed) return Promise.reject(new Error('the store writer is closed'));
    return this.started().then(
      (worker) =>
        new Promise<OutputOf<Jobs[K]>>((resolve, reject) => {
          const id = this.nextId;
          this.nextId += 1;
          this.waiting.set(id, { resolve: resolve as (output: never) => void, reject });
          // A job under way keeps the process alive; an idle worker does not.
          worker.ref();
          worker.postMessage({ id, job, input } satisfies WriterRequest);
        }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = await this.worker?.catch(() => null);
    if (!worker) return;
    // The worker runs what was asked before, then closes its connection and ends.
    const exited = once(worker, 'exit');
    worker.ref();
    worker.postMessage({ close: true } satisfies WriterRequest);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private spawn(): Promise<Worker> {
    return new Promise((resolve, reject) => {
      const worker = startWorker({ url: this.url });
      worker.unref();
      worker.on('message', (reply: WriterReply) => {
        if ('ready' in reply) {
          if (reply.ready) resolve(worker);
          else reject(receivedError(reply.error));
          return;
        }
        const waiter = this.waiting.get(reply.id);
        this.waiting.delete(reply.id);
        if (this.waiting.size === 0) worker.unref();
        if (!waiter) return;
        if ('error' in reply) waiter.reject(receivedError(reply.error));
        else waiter.resolve(reply.output as never);
      });
      worker.on('error', (error) => this.logger.error({ err: error }, 'the store writer failed'));
      worker.on('exit', (code) => {
        this.worker = null;
        const stopped = new Error(`the store writer stopped (exit code ${code})`);
        reject(stopped);
        for (const waiter of this.waiting.values()) waiter.reject(stopped);
        this.waiting.clear();
        if (!this.closed) this.logger.error({ code }, 'the store writer stopped; it starts again at the next write');
      });
    });
  }
}

/**
 * The product's writer for the store at `url`: a worker thread on a SQLite file or PostgreSQL
 * (started here, so a connection that cannot open fails the start), this thread on in-memory SQLite.
 * `jobs` run here; the worker runs the same registry, which src/writer.ts imports.
 */
export async function openStoreWriter<Jobs extends JobsOf<Jobs>>(url: string, sequelize: Sequelize, jobs: Jobs, logger: Logger): Promise<StoreWriter<Jobs>> {
  if (sqliteFile(url) === ':memory:') return inlineWriter(sequelize, jobs);
  const writer = new WorkerWriter<Jobs>(url, logger);
  await writer.started();
  return writer;
}
