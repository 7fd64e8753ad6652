// The product's memory in sandbox mode under chat: `npm start` without DISCORD_TOKEN, as the demo
// container runs it (the built bundle, the image's node flags and MALLOC_ARENA_MAX=2), with the
// sandbox Discord in the same process. Members post M messages in #general through the sandbox's
// control API (bulk posts of 25,000, the next once the bot has received the last); the product's
// RSS (VmRSS of its process, read from /proc) is printed every 100,000 messages and once the XP of
// every message is written. Prints each run and the median of the runs.
// Needs the bundle: `npm run build` first. Linux only (/proc).
// Usage: node --import tsx scripts/bench/sandbox-memory.ts [messages=500000] [runs=3]
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './child';
import { benchReport } from './report';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const messages = Number(process.argv[2] ?? 500_000);
const runs = Number(process.argv[3] ?? 3);
const BATCH = 25_000;
const PRINT_EVERY = 100_000;
const METRICS_TOKEN = 'sandbox-memory-bench';

/** The process's resident set, in MB, as the kernel counts it. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith('VmRSS:'));
  return Math.round(Number(/\d+/.exec(line ?? '')?.[0] ?? 0) / 102.4) / 10;
}

/** Polls `check` until it gives a value, failing after `timeoutMs`. */
async function until<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One sample's value in a Prometheus scrape, 0 when absent. */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** One run: a fresh product on a fresh SQLite file; returns its RSS (MB) once every message's XP is written. */
async function run(index: number): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-memory-'));
  const child: ChildProcess = spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=25', 'dist/server/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      SANDBOX_PORT: '0',
      DATABASE_URL: `sqlite:${path.join(dir, 'bot.sqlite')}`,
      LOG_LEVEL: 'warn',
      METRICS_TOKEN,
      MALLOC_ARENA_MAX: '2',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const pid = child.pid ?? 0;
  try {
    const dashboard = await until(async () => /Dashboard: (http:\/\/localhost:\d+)/.exec(output)?.[1], 'the dashboard URL');
    const sandbox = await until(async () => /the bot reaches it on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 'the sandbox URL');
    await until(
      async () => ((await (await fetch(`${dashboard}/api/health`)).json()) as { gateway: { status: string } }).gateway.status === 'ready',
      'the bot to be ready',
    );
    const state = (await (await fetch(`${sandbox}/_sandbox/state`)).json()) as { demo: { channels: { general: string } } };
    const scrape = async () => (await fetch(`${dashboard}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const received = async () => {
      const text = await scrape();
      const line = text.split('\n').find((candidate) => candidate.startsWith('bot_gateway_events_total{type="MESSAGE_CREATE"} '));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    const startedRss = rssMb(pid);
    const base = await received();
    const started = Date.now();
    let posted = 0;
    while (posted < messages) {
      const count = Math.min(BATCH, messages - posted);
      const response = await fetch(`${sandbox}/_sandbox/channels/${state.demo.channels.general}/messages/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count }),
      });
      if (response.status !== 201) throw new Error(`bulk post answered ${response.status}: ${await response.text()}`);
      posted += count;
      await until(async () => (await received()) - base >= posted, `${posted} messages received`);
      if (posted % PRINT_EVERY === 0) console.log(`  run ${index}: ${posted} messages, RSS ${rssMb(pid)} MB`);
    }
    await until(async () => sample(await scrape(), 'bot_accruals_pending_members') === 0, 'the accruals to be written');
    const rss = rssMb(pid);
    report.line(`run ${index}: RSS ${startedRss} MB ready -> ${rss} MB after ${posted} messages in ${Math.round((Date.now() - started) / 1000)} s`);
    return rss;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const report = benchReport('sandbox-memory', 'Memory of the demo: npm start in sandbox mode under chat (issue 20)');
const results: number[] = [];
for (let index = 1; index <= runs; index += 1) results.push(await run(index));
report.line(
  `median of ${runs}: RSS ${median(results)} MB after ${messages} messages in one channel (npm start, sandbox mode, MALLOC_ARENA_MAX=2; the sandbox ` +
    `keeps the last 1,000 per channel)`,
);
report.save();
