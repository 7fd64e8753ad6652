// The whole product (store, HTTP app, features, bot) in a process of its own, for benchmarks,
// pointed at a sandbox Discord running in another process (scripts/bench/sandbox-process.ts), so
// its CPU and RSS are its own. Prints one JSON line `{ url, controlUrl }` once the bot is ready,
// and runs until killed (SIGTERM closes the product, which writes what the accruals hold).
// product-client.ts `startProductProcess` runs it bundled with plain node, as `npm start` runs the
// product (PRODUCT_RUNTIME=tsx runs this file with tsx instead).
//
// Env: SANDBOX_INFO (the sandbox process's JSON line), PORT (the dashboard's port, known in
// advance so the sandbox can register `http://127.0.0.1:PORT/auth/callback` as a redirect URI),
// DATABASE_URL (default: a SQLite file in a fresh temporary directory), PRODUCT_LOG_LEVEL,
// PRODUCT_SOURCE_MAPS=1 (keep tsx's source maps on; off by default, as in production).
//
// Besides the product, a small control server on another port lets the bench look inside without
// touching the product's code: message counts, the accruals' queue, RSS, and store totals.
//   GET  /state                      { received, rss, heapUsed, heapTotal, external, pending, oldestPendingAgeMs }
//   GET  /wait?received=N            answers when N MESSAGE_CREATE have reached the bot: { at } (epoch ms)
//   POST /sample/start               samples accruals.oldestPendingAgeMs() and RSS every 50 ms, and the age of each flush's oldest accrual at its commit
//   POST /sample/stop                { samples, maxOldestPendingAgeMs, maxRss, flushes, eventLoopDelay, gc, queries? } since start
//   GET  /totals?guildId=ID          row counts and sums of user_levels, user_currency, transactions, guild_daily_stats
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants as perfConstants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Events } from 'discord.js';
import { QueryTypes } from 'sequelize';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startProduct } from '../../src/main';
import type { Sandbox, World } from '../../src/sandbox';
import type { ProductInfo, SandboxInfo, StoreTotals } from './product-client';
import { levelingState } from '../../src/features/leveling/state';

/**
 * The sandbox as the product sees it when it runs elsewhere: URLs, token and OAuth client.
 * The in-memory world is not reachable from here, so the demo login (which asks the world for the
 * demo account) is not available; sign in through the OAuth flow instead. Redirect URIs are
 * registered by the sandbox process (SANDBOX_REDIRECT_URIS).
 */
function remoteSandbox(info: SandboxInfo): Sandbox {
  return {
    url: info.url,
    apiBase: info.apiBase,
    cdnBase: info.cdnBase,
    gatewayUrl: info.gatewayUrl,
    botToken: info.botToken,
    oauth: {
      clientId: info.oauth.clientId,
      clientSecret: info.oauth.clientSecret,
      authorizeUrl: `${info.url}/oauth2/authorize`,
      tokenHost: info.url,
      tokenPath: '/api/oauth2/token',
      revokePath: '/api/oauth2/token/revoke',
      authorizePath: '/oauth2/authorize',
      registerRedirectUri: () => undefined,
    },
    // Only the demo login reads the world; it fails loudly here rather than pretending.
    world: new Proxy(
      {},
      {
        get: (_, key) => {
          throw new Error(`the sandbox runs in another process (world.${String(key)})`);
        },
      },
    ) as World,
    // The voice server lives with the world, in the sandbox's process.
    voiceEndpoint: '',
    voiceCaFile: '',
    voice: new Proxy(
      {},
      {
        get: (_, key) => {
          throw new Error(`the sandbox runs in another process (voice.${String(key)})`);
        },
      },
    ) as Sandbox['voice'],
    restRoutes: [],
    rateLimited: { bucket: 0, global: 0 },
    dropGateway: () => undefined,
    // The product mounts only a sandbox it started itself.
    mount: () => {
      throw new Error('the sandbox runs in another process');
    },
    close: () => Promise.resolve(),
  };
}

// tsx turns source maps on; `npm start` (node dist/server/main.js) runs without them, and every
// Sequelize query on SQLite reads an Error's stack, which source maps make several times dearer.
if (!process.env.PRODUCT_SOURCE_MAPS) process.setSourceMapsEnabled(false);

const info = JSON.parse(process.env.SANDBOX_INFO ?? '') as SandboxInfo;
const port = process.env.PORT ?? '0';
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${path.join(mkdtempSync(path.join(tmpdir(), 'bench-product-')), 'bot.sqlite')}`;
const config = loadConfig({
  PORT: port,
  SANDBOX_PORT: '0',
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: 'silent',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  DEMO_HISTORY: 'off',
});
const product = await startProduct(config, {
  logger: createLogger(process.env.PRODUCT_LOG_LEVEL ?? 'silent'),
  sandbox: remoteSandbox(info),
  // The bench signs in a few times from one address; the default auth limit is 20 a minute.
  rateLimits: { auth: { max: 1000, durationMs: 60_000 }, mutations: { max: 100_000, durationMs: 60_000 } },
});
if (!product.client.isReady()) await once(product.client, Events.ClientReady);

// Counted after the features' own listeners (registered first), so the Nth count means the Nth message went through them.
let received = 0;
const waiters: { count: number; resolve: (at: number) => void }[] = [];
product.client.on(Events.MessageCreate, () => {
  received += 1;
  for (let i = waiters.length - 1; i >= 0; i -= 1) {
    const waiter = waiters[i];
    if (waiter && received >= waiter.count) {
      waiters.splice(i, 1);
      waiter.resolve(Date.now());
    }
  }
});

const { accruals } = levelingState.of(product.services);
let sampler: NodeJS.Timeout | null = null;
let sampled = { samples: 0, maxOldestPendingAgeMs: 0, maxRss: 0 };
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
/** Garbage collections while sampling: how many and how long, minor (scavenges) and major (mark-compact, incremental marking). */
let gc = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
    const kind = entry.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR ? gc.minor : gc.major;
    kind.count += 1;
    kind.ms += entry.duration;
  }
});
let flushes = { count: 0, maxMs: 0, totalMs: 0, maxMembers: 0 };
// With PRODUCT_COUNT_QUERIES=1, SQL statements are counted by their first words (a hook on every query: off by default).
let queries = new Map<string, number>();
if (process.env.PRODUCT_COUNT_QUERIES) {
  product.store.sequelize.addHook('afterQuery', (_options, query) => {
    const key = ((query as unknown as { sql?: string }).sql ?? '').replace(/\s+/g, ' ').slice(0, 36);
    queries.set(key, (queries.get(key) ?? 0) + 1);
  });
}
// Each flush that wrote something: its duration, its members, and how old its oldest accrual was
// when it committed (an accrual waits in memory, then in the write, until then).
let sampling = false;
accruals.observeFlushes(({ ms, members, oldestAgeMs }) => {
  if (!sampling) return;
  flushes = { count: flushes.count + 1, maxMs: Math.max(flushes.maxMs, ms), totalMs: flushes.totalMs + ms, maxMembers: Math.max(flushes.maxMembers, members) };
  sampled.maxOldestPendingAgeMs = Math.max(sampled.maxOldestPendingAgeMs, oldestAgeMs);
});

async function totals(guildId: string): Promise<StoreTotals> {
  const query = async (sql: string) => {
    const [row] = await product.store.sequelize.query<Record<string, number | string | null>>(sql, { replacements: [guildId], type: QueryTypes.SELECT });
    return Object.fromEntries(Object.entries(row ?? {}).map(([key, value]) => [key, Number(value ?? 0)]));
  };
  const levels = await query(`SELECT COUNT(*) AS "rows", SUM("messagesCount") AS "messages", SUM("totalXp") AS "xp" FROM user_levels WHERE "guildId" = ?`);
  const wallets = await query(`SELECT COUNT(*) AS "rows", SUM("balance") AS "balance", SUM("totalEarned") AS "earned" FROM user_currency WHERE "guildId" = ?`);
  const ledger = await query(`SELECT COUNT(*) AS "rows" FROM transactions WHERE "guildId" = ?`);
  const daily = await query(`SELECT SUM("xp") AS "xp" FROM guild_daily_stats WHERE "guildId" = ?`);
  return {
    levelRows: levels.rows ?? 0,
    messages: levels.messages ?? 0,
    totalXp: levels.xp ?? 0,
    walletRows: wallets.rows ?? 0,
    balance: wallets.balance ?? 0,
    totalEarned: wallets.earned ?? 0,
    transactions: ledger.rows ?? 0,
    dailyXp: daily.xp ?? 0,
  };
}

async function control(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const url = new URL(req.url ?? '/', 'http://control');
  const route = `${req.method} ${url.pathname}`;
  if (route === 'GET /state') {
    const memory = process.memoryUsage();
    return {
      received,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      pending: accruals.pendingCount(),
      oldestPendingAgeMs: accruals.oldestPendingAgeMs(),
    };
  }
  if (route === 'GET /wait') {
    const count = Number(url.searchParams.get('received'));
    if (received >= count) return { at: Date.now(), late: true };
    return { at: await new Promise<number>((resolve) => waiters.push({ count, resolve })) };
  }
  if (route === 'POST /sample/start') {
    sampled = { samples: 0, maxOldestPendingAgeMs: 0, maxRss: 0 };
    gc = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
    gcObserver.observe({ entryTypes: ['gc'] });
    flushes = { count: 0, maxMs: 0, totalMs: 0, maxMembers: 0 };
    queries = new Map();
    loopDelay.reset();
    loopDelay.enable();
    sampling = true;
    if (sampler) clearInterval(sampler);
    sampler = setInterval(() => {
      sampled.samples += 1;
      sampled.maxOldestPendingAgeMs = Math.max(sampled.maxOldestPendingAgeMs, accruals.oldestPendingAgeMs());
      sampled.maxRss = Math.max(sampled.maxRss, process.memoryUsage.rss());
    }, 50);
    return {};
  }
  if (route === 'POST /sample/stop') {
    if (sampler) clearInterval(sampler);
    sampler = null;
    sampling = false;
    loopDelay.disable();
    gcObserver.disconnect();
    const ms = (ns: number) => Math.round(ns / 1e6);
    return {
      ...sampled,
      flushes: {
        count: flushes.count,
        maxMs: Math.round(flushes.maxMs),
        meanMs: Math.round(flushes.totalMs / Math.max(1, flushes.count)),
        maxMembers: flushes.maxMembers,
      },
      eventLoopDelay: { p50Ms: ms(loopDelay.percentile(50)), p99Ms: ms(loopDelay.percentile(99)), maxMs: ms(loopDelay.max) },
      gc: { minor: { count: gc.minor.count, ms: Math.round(gc.minor.ms) }, major: { count: gc.major.count, ms: Math.round(gc.major.ms) } },
      ...(queries.size > 0 ? { queries: Object.fromEntries([...queries].sort((a, b) => b[1] - a[1]).slice(0, 12)) } : {}),
    };
  }
  if (route === 'GET /totals') return totals(url.searchParams.get('guildId') ?? '');
  res.statusCode = 404;
  return { error: `no control route ${route}` };
}

const controlServer = createServer((req, res) => {
  control(req, res)
    .then((body) => res.setHeader('content-type', 'application/json').end(JSON.stringify(body)))
    .catch((error: unknown) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ error: String(error) }));
    });
});
controlServer.listen(0, '127.0.0.1');
await once(controlServer, 'listening');
const controlPort = (controlServer.address() as AddressInfo).port;
const ready: ProductInfo = { url: product.url, controlUrl: `http://127.0.0.1:${controlPort}`, databaseUrl };
process.stdout.write(`${JSON.stringify(ready)}\n`);

process.on('SIGTERM', () => {
  controlServer.closeAllConnections();
  controlServer.close();
  void product.close().then(() => process.exit(0));
});
