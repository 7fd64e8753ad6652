// How the dashboard's two heaviest guild reads hold up under load on a big guild:
// GET /api/servers/:guildId/leaderboard/levels and GET /api/servers/:guildId/economy/stats.
//
// A SQLite store is seeded directly (bulkCreate in chunks) with one guild's 100,000 members:
// user_levels and user_currency rows, plus 2 ledger rows per member spread over 30 days. The
// product (scripts/bench/product-process.ts) then runs on that store in its own process, against a
// sandbox Discord (5,000 members) in another, and an admin signs in through the OAuth flow. Each
// run drives each route with autocannon from this process (50 connections, 10 s): requests/s,
// p99 latency and non-2xx answers, first with the bot idle, then while the sandbox posts about
// 5,000 messages/s in #general (the rate the product actually received is reported). Before the
// runs, each route's uncached latency is measured once per second for 5 s (its read cache lives 1 s).
// GET /api/auth/me, signed in but touching no guild data, is measured the same way as a baseline.
// All three processes share this machine's cores: the load generator's CPU is not the product's.
//
// Usage: node --import tsx scripts/bench/read-load.ts [members=100000] [runs=3] [seconds=10] [ingestPerSecond=5000]
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { benchReport } from './report';
import { median, stop } from './child';
import { format, ingest, load, seed, uncachedLatency, type Figures } from './load-kit';
import { callControl, freePort, signIn, startProductProcess, startSandboxProcess, type ProductState, type Sampled } from './product-client';

const members = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 10);
const ingestPerSecond = Number(process.argv[5] ?? 5000);

const directory = mkdtempSync(path.join(tmpdir(), 'bench-read-load-'));
const databaseUrl = `sqlite:${path.join(directory, 'bot.sqlite')}`;
const port = await freePort();
const { child: sandboxChild, info: sandbox } = await startSandboxProcess(5000, port);
try {
  const guildId = sandbox.demo.guildId;
  const seeding = Date.now();
  await seed(databaseUrl, guildId, members);
  console.log(`seeded ${members} members (levels, wallets, ${members * 2} ledger rows) in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
  const { child, info: product } = await startProductProcess(sandbox, port, { DATABASE_URL: databaseUrl });
  try {
    const cookie = await signIn(product, sandbox.demo.adminUserId);
    // GET /api/auth/me (session and account, no guild, no cache) is the baseline of the HTTP stack.
    const routes = {
      leaderboard: `/api/servers/${guildId}/leaderboard/levels`,
      'economy stats': `/api/servers/${guildId}/economy/stats`,
      'baseline /api/auth/me': '/api/auth/me',
    };
    for (const [name, route] of Object.entries(routes))
      if (route.includes('/servers/')) console.log(`${name}: uncached latency ${await uncachedLatency(product, cookie, route)} ms (median of 5)`);

    const results: Record<string, { idle: Figures[]; ingest: Figures[]; ingested: number[] }> = {};
    for (let run = 1; run <= runs; run += 1) {
      for (const [name, route] of Object.entries(routes)) {
        const entry = (results[name] ??= { idle: [], ingest: [], ingested: [] });
        const idle = await load(`${product.url}${route}`, cookie, seconds);
        entry.idle.push(idle);
        const before = await callControl<ProductState>(product, 'GET', '/state');
        await callControl(product, 'POST', '/sample/start');
        const posting = ingest(sandbox, ingestPerSecond);
        const started = Date.now();
        const busy = await load(`${product.url}${route}`, cookie, seconds);
        await posting.stop();
        const after = await callControl<ProductState>(product, 'GET', '/state');
        const sampled = await callControl<Sampled>(product, 'POST', '/sample/stop');
        const ingested = Math.round((after.received - before.received) / ((Date.now() - started) / 1000));
        entry.ingest.push(busy);
        entry.ingested.push(ingested);
        console.log(
          `run ${run} ${name}: idle ${format(idle)}; while ingesting ${ingested} msg/s: ${format(busy)} ` +
            `(oldest accrual max ${sampled.maxOldestPendingAgeMs} ms, longest flush ${sampled.flushes.maxMs} ms, event loop p99 ` +
            `${sampled.eventLoopDelay.p99Ms} ms; load average ${loadavg()[0]?.toFixed(1)})`,
        );
        // Let the backlog drain before the next idle measurement.
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
    const report = benchReport('read-load', 'Reads on 100,000 members: the leaderboard and economy stats, idle and while ingesting (issue 11)');
    for (const [name, { idle, ingest: busy, ingested }] of Object.entries(results)) {
      report.line(
        `median of ${runs} ${name}: idle ${median(idle.map((f) => f.rps))} req/s, p99 ${median(idle.map((f) => f.p99))} ms; ` +
          `while ingesting ${median(ingested)} msg/s: ${median(busy.map((f) => f.rps))} req/s, p99 ${median(busy.map((f) => f.p99))} ms (target >= ` +
          `2500 req/s, p99 < 40 ms)`,
      );
    }
    report.save();
  } finally {
    await stop(child);
  }
} finally {
  await stop(sandboxChild);
}
