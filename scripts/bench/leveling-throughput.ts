// How fast the product earns XP and coins from chat, against a sandbox Discord in another process
// whose guild has 5,000 members posting in turn (the sandbox's bulk post spreads authors over every
// member who may post in #general).
//
// Throughput mode (default), per run, one sandbox process:
//   1. a bare discord.js client (createBotClient, as in sandbox-throughput.ts) in this process
//      receives N messages: the sandbox's own ceiling, and the baseline of the ratio;
//   2. that client leaves, and the product (scripts/bench/product-process.ts: store on a SQLite
//      file, HTTP app, features, bot) starts in a process of its own; leveling and economy are
//      switched on through PUT /api/servers/:guildId/settings as a signed-in admin; after a warm-up
//      (2,000 messages from 2 members, flushed), the same N messages are posted. Reported: messages/s
//      until the Nth MESSAGE_CREATE went through the bot's listeners (ingest) and until the store
//      holds all of them (persisted: SUM(messagesCount) of user_levels equals every message posted),
//      each as a ratio to the bare client; the oldest unflushed accrual's age, sampled every 50 ms
//      inside the product from ingest start to persisted (max); and the rows the run left.
//   The bare client and the product take turns rather than share the stream: on this 2-core
//   machine, two receivers at once would measure CPU sharing with the sandbox, not the product.
// RSS mode (`rss`): one product receives M messages in batches of 25,000 (at most two batches in
//   flight), printing its RSS every 100,000 messages, then its RSS once everything is persisted.
//
// BENCH_AUTOMOD=1 turns auto moderation on with every rule (see ALL_RULES): compare its ingest with a run without.
//
// 200,000 messages a run (about 8 s of chat at the product's rate): a run of 30,000 lasted about a
// second, so its figures were those of a process still warming up and of whichever flush happened
// to be running at its end; they moved by a third from run to run.
//
// Usage: node --import tsx scripts/bench/leveling-throughput.ts [messages=200000] [runs=3] [members=5000]
//        node --import tsx scripts/bench/leveling-throughput.ts rss [messages=1000000] [runs=1] [members=5000]
//        (with MALLOC_ARENA_MAX=2 in the environment, as the Docker image runs the product: a section of its own)
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { Events } from 'discord.js';
import { createBotClient } from '../../src/bot/client';
import { cpuSeconds } from './load-kit';
import { benchReport } from './report';
import { median, stop } from './child';
import {
  bulkPost,
  callApi,
  callControl,
  freePort,
  mb,
  signIn,
  startProductProcess,
  startSandboxProcess,
  until,
  type ProductInfo,
  type ProductState,
  type Sampled,
  type SandboxInfo,
  type StoreTotals,
} from './product-client';

const rssMode = process.argv[2] === 'rss';
const args = rssMode ? process.argv.slice(3) : process.argv.slice(2);
const messages = Number(args[0] ?? (rssMode ? 1_000_000 : 200_000));
const runs = Number(args[1] ?? (rssMode ? 1 : 3));
const members = Number(args[2] ?? 5000);
const WARM_UP = 2000;
const RSS_BATCH = 25_000;

/** Messages per second for `count` messages between two epoch-ms instants. */
const rate = (count: number, from: number, to: number) => Math.round(count / ((to - from) / 1000));

/** CPU microseconds per message from two CPU-seconds readings. */
const perMessage = (cpuSeconds: number, count: number) => Math.round((cpuSeconds * 1e6) / count);

/**
 * The bare client's rate for `count` messages, after a warm-up of the sandbox and the client, and
 * the CPU it took per message (µs; this process's, which does nothing else meanwhile).
 */
async function bareClientRate(sandbox: SandboxInfo, count: number): Promise<{ rate: number; cpuUs: number }> {
  const client = createBotClient({ api: sandbox.apiBase, cdn: sandbox.cdnBase, globalRequestsPerSecond: 1000 });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(sandbox.botToken);
    await ready;
    let received = 0;
    let target = 0;
    let reached: (at: number) => void = () => undefined;
    client.on(Events.MessageCreate, () => {
      received += 1;
      if (received === target) reached(Date.now());
    });
    const receive = async (n: number) => {
      target = received + n;
      const done = new Promise<number>((resolve) => (reached = resolve));
      const started = Date.now();
      await bulkPost(sandbox, sandbox.demo.channels.general, n);
      return rate(n, started, await done);
    };
    await receive(WARM_UP);
    const cpu = process.cpuUsage();
    const measured = await receive(count);
    const used = process.cpuUsage(cpu);
    return { rate: measured, cpuUs: perMessage((used.user + used.system) / 1e6, count) };
  } finally {
    await client.destroy();
  }
}

/**
 * With BENCH_AUTOMOD=1, auto moderation is on with every rule enabled, set so that the bench's chat
 * ("message N" from members posting in turn, each a few times a second) breaks none of them: the
 * cost measured is judging every message, as in a guild whose members behave.
 */
const automod = process.env.BENCH_AUTOMOD === '1';
const on = { enabled: true, action: 'delete', duration: null, exemptRoleIds: [], exemptChannelIds: [] };
const ALL_RULES = {
  invites: on,
  links: { ...on, allowedDomains: ['example.com', 'github.com'] },
  mentions: { ...on, maxMentions: 5 },
  repeats: { ...on, maxRepeats: 3 },
  rate: { ...on, maxMessages: 100, perSeconds: 1 },
  words: { ...on, words: Array.from({ length: 50 }, (_, i) => `blocked${i}`) },
  caps: { ...on, maxPercent: 70, minLength: 10 },
};

/** Starts the product against the sandbox, signs the admin in, and switches leveling and economy on (and auto moderation, with BENCH_AUTOMOD=1). */
async function startProduct(sandbox: SandboxInfo, port: number) {
  const started = await startProductProcess(sandbox, port);
  const cookie = await signIn(started.info, sandbox.demo.adminUserId);
  await callApi(started.info, cookie, 'PUT', `/api/servers/${sandbox.demo.guildId}/settings`, {
    levelingEnabled: true,
    economyEnabled: true,
    ...(automod ? { automodEnabled: true, automodRules: ALL_RULES } : {}),
  });
  return started;
}

const totalsOf = (product: ProductInfo, sandbox: SandboxInfo) => callControl<StoreTotals>(product, 'GET', `/totals?guildId=${sandbox.demo.guildId}`);

/** Waits until the store counts `expected` messages for the guild and nothing waits in the accruals; returns when (epoch ms). */
async function persisted(product: ProductInfo, sandbox: SandboxInfo, expected: number, timeoutMs = 60_000): Promise<number> {
  await until(async () => (await totalsOf(product, sandbox)).messages >= expected, `${expected} messages in the store`, timeoutMs);
  return Date.now();
}

interface ThroughputRun {
  bare: number;
  /** CPU per message (µs): the bare client's, and the product process's until ingested and until persisted. */
  bareCpuUs: number;
  ingestCpuUs: number;
  persistedCpuUs: number;
  ingest: number;
  persisted: number;
  oldestMs: number;
  sampled: Sampled;
  totals: StoreTotals;
}

/** One throughput run: a fresh sandbox, the bare client, then the product. */
async function throughputRun(): Promise<ThroughputRun> {
  const port = await freePort();
  const { child: sandboxChild, info: sandbox } = await startSandboxProcess(members, port);
  try {
    const { rate: bare, cpuUs: bareCpuUs } = await bareClientRate(sandbox, messages);
    const { child, info: product } = await startProduct(sandbox, port);
    try {
      // Warm-up from two members (who then sit in their cooldown: 2 of 5,000 earn nothing in the run).
      const warmAuthors = [sandbox.demo.ownerUserId, sandbox.demo.adminUserId];
      await bulkPost(sandbox, sandbox.demo.channels.general, WARM_UP, warmAuthors);
      await persisted(product, sandbox, WARM_UP);
      await callControl(product, 'POST', '/sample/start');
      const pid = child.pid ?? 0;
      const cpuStart = cpuSeconds(pid);
      const started = Date.now();
      const arrived = callControl<{ at: number }>(product, 'GET', `/wait?received=${WARM_UP + messages}`);
      await bulkPost(sandbox, sandbox.demo.channels.general, messages);
      const ingestAt = (await arrived).at;
      const cpuIngested = cpuSeconds(pid);
      const persistedAt = await persisted(product, sandbox, WARM_UP + messages);
      const cpuPersisted = cpuSeconds(pid);
      const sampled = await callControl<Sampled>(product, 'POST', '/sample/stop');
      const totals = await totalsOf(product, sandbox);
      return {
        bare,
        bareCpuUs,
        ingestCpuUs: perMessage(cpuIngested - cpuStart, messages),
        persistedCpuUs: perMessage(cpuPersisted - cpuStart, messages),
        ingest: rate(messages, started, ingestAt),
        persisted: rate(messages, started, persistedAt),
        oldestMs: sampled.maxOldestPendingAgeMs,
        sampled,
        totals,
      };
    } finally {
      await stop(child);
    }
  } finally {
    await stop(sandboxChild);
  }
}

/** One RSS run: a fresh sandbox and product; `messages` in batches; RSS along the way and at the end. */
async function rssRun(): Promise<number> {
  const port = await freePort();
  const { child: sandboxChild, info: sandbox } = await startSandboxProcess(members, port);
  try {
    const { child, info: product } = await startProduct(sandbox, port);
    try {
      const state = () => callControl<ProductState>(product, 'GET', '/state');
      const initial = await state();
      console.log(`  ready: RSS ${mb(initial.rss)} MB (heap used ${mb(initial.heapUsed)} of ${mb(initial.heapTotal)} MB, external ${mb(initial.external)} MB)`);
      await callControl(product, 'POST', '/sample/start');
      const started = Date.now();
      let posted = 0;
      let reported = 0;
      while (posted < messages) {
        const batch = Math.min(RSS_BATCH, messages - posted);
        await bulkPost(sandbox, sandbox.demo.channels.general, batch);
        posted += batch;
        await callControl(product, 'GET', `/wait?received=${Math.max(0, posted - RSS_BATCH)}`);
        if (posted - reported >= 100_000) {
          reported = posted;
          const now = await state();
          console.log(
            `  ${posted} posted, ${now.received} received: RSS ${mb(now.rss)} MB (heap used ${mb(now.heapUsed)} of ${mb(now.heapTotal)} MB, external ` +
              `${mb(now.external)} MB), ${rate(now.received, started, Date.now())} msg/s so far`,
          );
        }
      }
      await callControl(product, 'GET', `/wait?received=${messages}`);
      const ingestAt = Date.now();
      await persisted(product, sandbox, messages);
      const sampled = await callControl<Sampled>(product, 'POST', '/sample/stop');
      const end = await state();
      const totals = await totalsOf(product, sandbox);
      console.log(
        `  all ${messages} received at ${rate(messages, started, ingestAt)} msg/s and persisted: RSS ${mb(end.rss)} MB (heap used ${mb(end.heapUsed)} ` +
          `of ${mb(end.heapTotal)} MB); ` +
          `oldest accrual max ${sampled.maxOldestPendingAgeMs} ms; peak RSS ${mb(sampled.maxRss)} MB`,
      );
      console.log(`  flushes ${JSON.stringify(sampled.flushes)}; event loop delay ${JSON.stringify(sampled.eventLoopDelay)}`);
      console.log(`  store: ${JSON.stringify(totals)}`);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const later = await state();
      console.log(`  5 s later: RSS ${mb(later.rss)} MB (heap used ${mb(later.heapUsed)} of ${mb(later.heapTotal)} MB, external ${mb(later.external)} MB)`);
      return end.rss;
    } finally {
      await stop(child);
    }
  } finally {
    await stop(sandboxChild);
  }
}

if (automod) console.log('auto moderation on, every rule enabled (BENCH_AUTOMOD=1)');
if (rssMode) {
  const results: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    console.log(`run ${i + 1}: ${messages} messages, ${members} members`);
    const rss = await rssRun();
    results.push(rss);
    console.log(`run ${i + 1}: RSS after ${messages} messages ${mb(rss)} MB (load average ${loadavg()[0]?.toFixed(1)})`);
  }
  // The Docker image sets MALLOC_ARENA_MAX=2; `npm start` leaves glibc's default. Each has its section.
  const arenas = process.env.MALLOC_ARENA_MAX;
  const report = arenas
    ? benchReport('leveling-rss-arenas', `Memory: the product after a million messages, MALLOC_ARENA_MAX=${arenas} as in the Docker image (issue 11)`)
    : benchReport('leveling-rss', 'Memory: the product after a million messages, as `npm start` runs it (issue 11)');
  report.line(`runs: ${results.map((rss) => `${mb(rss)} MB`).join(', ')}`);
  report.line(
    `median of ${runs}: RSS ${mb(median(results))} MB after ${messages} messages from ${members} ` +
      `members${automod ? ', auto moderation on' : ''}${arenas ? `, MALLOC_ARENA_MAX=${arenas}` : ''} (target < 200 MB)`,
  );
  report.save();
} else {
  const results: ThroughputRun[] = [];
  for (let i = 0; i < runs; i += 1) {
    const run = await throughputRun();
    results.push(run);
    const t = run.totals;
    console.log(
      `run ${i + 1}: bare client ${run.bare} msg/s; product ingest ${run.ingest} msg/s (ratio ${(run.ingest / run.bare).toFixed(2)}), ` +
        `persisted ${run.persisted} msg/s (ratio ${(run.persisted / run.bare).toFixed(2)}); oldest unflushed accrual max ${run.oldestMs} ms; ` +
        `CPU per message: bare client ${run.bareCpuUs} µs, product ${run.ingestCpuUs} µs until ingested, ${run.persistedCpuUs} µs until persisted ` +
        `(${messages} messages, ${members} members; store: ${t.messages} messages counted, ${t.levelRows} level rows, ${t.walletRows} wallets, ` +
        `${t.balance} coins, ${t.transactions} ledger rows, ${t.totalXp} XP, daily XP ${t.dailyXp}; load average ${loadavg()[0]?.toFixed(1)})`,
    );
    const { flushes, eventLoopDelay } = run.sampled;
    console.log(
      `       flushes: ${flushes.count}, longest ${flushes.maxMs} ms, mean ${flushes.meanMs} ms, most members ${flushes.maxMembers}; ` +
        `product event loop delay p50 ${eventLoopDelay.p50Ms} ms, p99 ${eventLoopDelay.p99Ms} ms, max ${eventLoopDelay.maxMs} ms; ` +
        `GC ${run.sampled.gc.minor.count} minor (${run.sampled.gc.minor.ms} ms), ${run.sampled.gc.major.count} major (${run.sampled.gc.major.ms} ms)`,
    );
    if (run.sampled.queries) console.log(`       SQL statements: ${JSON.stringify(run.sampled.queries)}`);
  }
  const pick = (f: (run: ThroughputRun) => number) => median(results.map(f));
  const report = benchReport(
    automod ? 'leveling-throughput-automod' : 'leveling-throughput',
    `Ingest: messages/s through the bot, XP and coins persisted${automod ? ', auto moderation on' : ''} (issue 11)`,
  );
  for (const [index, run] of results.entries()) {
    report.line(
      `run ${index + 1}: bare ${run.bare}, ingest ${run.ingest}, persisted ${run.persisted} msg/s; CPU per message ${run.bareCpuUs} / ` +
        `${run.ingestCpuUs} / ${run.persistedCpuUs} µs; ` +
        `oldest accrual ${run.oldestMs} ms; event loop p99 ${run.sampled.eventLoopDelay.p99Ms} ms`,
    );
  }
  report.line(
    `median of ${runs}: bare client ${pick((r) => r.bare)} msg/s; product ingest ${pick((r) => r.ingest)} msg/s (ratio ` +
      `${pick((r) => r.ingest / r.bare).toFixed(2)}), ` +
      `persisted ${pick((r) => r.persisted)} msg/s (ratio ${pick((r) => r.persisted / r.bare).toFixed(2)}); oldest unflushed accrual max ` +
      `${pick((r) => r.oldestMs)} ms`,
  );
  report.line(
    `CPU per message (median): bare client ${pick((r) => r.bareCpuUs)} µs; product ${pick((r) => r.ingestCpuUs)} µs until ingested, ` +
      `${pick((r) => r.persistedCpuUs)} µs until persisted ` +
      `(${pick((r) => r.bareCpuUs / r.persistedCpuUs).toFixed(2)}x the bare client's rate at equal CPU)`,
  );
  report.line(
    `(${messages} messages from ${members} members a run; targets: ratio >= 0.7, >= 15,000 msg/s if the sandbox can produce it, oldest accrual <= 1,000 ms)`,
  );
  report.save();
}
