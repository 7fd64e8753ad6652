// What the product's thread and the store writer's thread (src/db/writer.ts, src/db/writer-host.ts)
// say to each other, and the shape of a write job. Loads no module: both threads import it.
import type { SqlSession } from './sql';

/** A write job: statements in one transaction, from a plain input to a plain output (both cross threads by copy). */
export type WriteJob = (session: SqlSession, input: never) => Promise<unknown>;
/** The jobs a writer runs, by name (an interface of jobs fits too: see src/core/write-jobs.ts). */
export type WriteJobs = { [name: string]: WriteJob };
/** Jobs by name, as a record or an interface (which has no index signature). */
export type JobsOf<Jobs> = { [K in keyof Jobs]: WriteJob };

/** An error as it crosses threads: what classifies it (src/core/store-errors.ts) is kept. */
export interface SentError {
  name: string;
  message: string;
  code?: string;
  errno?: number;
  stack?: string;
}

/** What the product's thread asks the writer's thread. */
export type WriterRequest = { id: number; job: string; input: unknown } | { close: true };
/** What the writer's thread answers: once whether its connection opened, then each job's outcome. */
export type WriterReply = { ready: true } | { ready: false; error: SentError } | { id: number; output: unknown } | { id: number; error: SentError };

/** An error as the other thread can receive it. */
export function sendError(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(error.stack === undefined ? {} : { stack: error.stack }),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof errno === 'number' ? { errno } : {}),
  };
}

/** The received error as an Error again, with its code, so a store failure is still recognised. */
export function receivedError(sent: SentError): Error {
  const error = Object.assign(
    new Error(sent.message),
    sent.code === undefined ? {} : { code: sent.code },
    sent.errno === undefined ? {} : { errno: sent.errno },
  );
  error.name = sent.name;
  if (sent.stack !== undefined) error.stack = sent.stack;
  return error;
}
