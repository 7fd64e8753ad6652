// The built product as a self-hoster runs it (`node dist/server/main.js`, sandbox mode, a SQLite
// file), in a child process: its output, its exit, and what a test does to it before stopping it
// (members chat until XP waits in memory for its flush, then the store is read back).
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import type { BuiltProduct } from '../helpers/build';

/** The token that opens GET /metrics in the child. */
const METRICS_TOKEN = 'running-product-metrics-token';
/** Messages per round; rounds go on until a scrape catches accruals waiting for their flush. */
const ROUND = 200;
const MAX_ROUNDS = 5;

/** One sample's value in a Prometheus scrape (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, label = ''): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${label ? `{${label}}` : ''} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** Polls `check` every 10 ms until it gives a value (a throw counts as not yet), failing after `timeoutMs`. */
async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A product running in a child process, ready (its bot on the sandbox's gateway). */
export interface RunningProduct {
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its JSON log lines so far. */
  logs(): { level: number; msg: string; err?: { message?: string } }[];
  /** Resolves with its exit code and signal. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Members chat in #general until the bot has every message and some XP waits for its flush; resolves with how many were posted. */
  chatUntilAccrualsWait(): Promise<number>;
  /** Messages the store counts for the demo guild (SUM of user_levels.messagesCount), read once the child has exited. */
  messagesWritten(): Promise<number>;
  /** SIGKILLs it if it still runs. */
  kill(): Promise<void>;
}

/**
 * Starts `dist/server/main.js` of `built` on a SQLite file in `dir`, with `nodeArgs` before the
 * script (a test's `--import` preload), and waits until the bot is ready.
 */
export async function startRunningProduct(built: BuiltProduct, dir: string, nodeArgs: string[] = []): Promise<RunningProduct> {
  const database = path.join(dir, 'bot.sqlite');
  const child = spawn(process.execPath, [...nodeArgs, 'dist/server/main.js'], {
    cwd: built.dir,
    env: { PATH: process.env.PATH, PORT: '0', SANDBOX_PORT: '0', DATABASE_URL: `sqlite:${database}`, LOG_LEVEL: 'info', METRICS_TOKEN, DEMO_HISTORY: 'off' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  const dashboard = await until(async () => /Dashboard: (http:\/\/localhost:\d+)/.exec(output)?.[1], 'the dashboard URL');
  const sandbox = await until(async () => /the bot reaches it on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 'the sandbox URL');
  await until(
    async () => ((await (await fetch(`${dashboard}/api/health`)).json()) as { gateway: { status: string } }).gateway.status === 'ready',
    'the bot to be ready',
  );
  const state = (await (await fetch(`${sandbox}/_sandbox/state`)).json()) as { demo: { guildId: string; channels: { general: string } } };
  const { guildId, channels } = state.demo;
  const scrape = async () => (await fetch(`${dashboard}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const received = async () => sample(await scrape(), 'bot_gateway_events_total', 'type="MESSAGE_CREATE"');

  return {
    child,
    output: () => output,
    logs: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as ReturnType<RunningProduct['logs']>[number]),
    exited,
    // A scrape taken as soon as the bot has every message finds accruals waiting for the next
    // flush (which runs every 250 ms) in one round or a few: what comes next comes while they wait.
    async chatUntilAccrualsWait() {
      let posted = 0;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const response = await fetch(`${sandbox}/_sandbox/channels/${channels.general}/messages/bulk`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ count: ROUND }),
        });
        assert.equal(response.status, 201);
        posted += ROUND;
        await until(async () => (await received()) >= posted, `${posted} messages received`);
        if (sample(await scrape(), 'bot_accruals_pending_members') > 0) return posted;
      }
      assert.fail('a scrape caught accruals waiting for their flush');
    },
    async messagesWritten() {
      const db = new sqlite3.Database(database, sqlite3.OPEN_READONLY);
      try {
        const row = await new Promise<{ messages: number | null }>((resolve, reject) =>
          db.get<{ messages: number | null }>('SELECT SUM("messagesCount") AS messages FROM user_levels WHERE "guildId" = ?', [guildId], (error, found) =>
            error ? reject(error) : resolve(found),
          ),
        );
        return row.messages ?? 0;
      } finally {
        await new Promise<void>((resolve) => db.close(() => resolve()));
      }
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
