// The built product, as a self-hoster runs it, stopped with SIGTERM while XP and coins wait in
// memory: it exits 0 within 10 s, and the store holds every message the bot received.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sqlite3 from 'sqlite3';
import { buildProduct, type BuiltProduct } from '../helpers/build';

const TOKEN = 'shutdown-test-metrics-token';
/** Messages per round; rounds go on until a scrape catches accruals waiting for their flush. */
const ROUND = 200;
const MAX_ROUNDS = 5;

/** One sample's value in a Prometheus scrape (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, label = ''): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${label ? `{${label}}` : ''} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('SIGTERM', () => {
  let built: BuiltProduct;
  let dir: string;
  let child: ChildProcessWithoutNullStreams | undefined;

  before(async () => {
    built = await buildProduct();
    dir = await mkdtemp(path.join(tmpdir(), 'shutdown-test-'));
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await built?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('writes every accrual the bot received, closes everything and exits 0 within 10 s, once for two signals', { timeout: 120_000 }, async () => {
    const database = path.join(dir, 'bot.sqlite');
    const started = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: built.dir,
      env: { PATH: process.env.PATH, PORT: '0', SANDBOX_PORT: '0', DATABASE_URL: `sqlite:${database}`, LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(started, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    const dashboard = await until(async () => /Dashboard: (http:\/\/localhost:\d+)/.exec(output)?.[1], 'the dashboard URL');
    const sandbox = await until(async () => /the bot reaches it on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 'the sandbox URL');
    await until(async () => ((await (await fetch(`${dashboard}/api/health`)).json()) as { gateway: { status: string } }).gateway.status === 'ready', 'the bot to be ready');
    const state = (await (await fetch(`${sandbox}/_sandbox/state`)).json()) as { demo: { guildId: string; channels: { general: string } } };
    const { guildId, channels } = state.demo;
    const scrape = async () => (await fetch(`${dashboard}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const received = async () => sample(await scrape(), 'bot_gateway_events_total', 'type="MESSAGE_CREATE"');

    // Members chat until a scrape, taken as soon as the bot has every message, finds accruals
    // waiting for the next flush (which runs every 250 ms): the signal then comes while they wait.
    let posted = 0;
    let caughtWaiting = false;
    for (let round = 0; round < MAX_ROUNDS && !caughtWaiting; round++) {
      const response = await fetch(`${sandbox}/_sandbox/channels/${channels.general}/messages/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: ROUND }),
      });
      assert.equal(response.status, 201);
      posted += ROUND;
      await until(async () => (await received()) >= posted, `${posted} messages received`);
      caughtWaiting = sample(await scrape(), 'bot_accruals_pending_members') > 0;
    }
    assert.ok(caughtWaiting, 'a scrape caught accruals waiting for their flush');

    const signalled = Date.now();
    started.kill('SIGTERM');
    started.kill('SIGTERM');
    const [code, signal] = await exited;
    const tookMs = Date.now() - signalled;
    assert.equal(signal, null, output);
    assert.equal(code, 0, output);
    assert.ok(tookMs < 10_000, `stopped in ${tookMs} ms`);

    const logs = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number; msg: string });
    assert.equal(logs.filter((entry) => entry.msg === 'shutting down').length, 1, 'one shutdown for two signals');
    assert.ok(logs.some((entry) => entry.msg === 'stopped'));
    assert.deepEqual(logs.filter((entry) => entry.level >= 50).map((entry) => entry.msg), [], 'nothing failed while stopping');

    const db = new sqlite3.Database(database, sqlite3.OPEN_READONLY);
    try {
      const row = await new Promise<{ messages: number | null }>((resolve, reject) =>
        db.get<{ messages: number | null }>('SELECT SUM("messagesCount") AS messages FROM user_levels WHERE "guildId" = ?', [guildId], (error, found) => (error ? reject(error) : resolve(found))),
      );
      assert.equal(row.messages, posted, 'every message received was written');
    } finally {
      await new Promise<void>((resolve) => db.close(() => resolve()));
    }
  });
});
