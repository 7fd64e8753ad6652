// What the HTTP benchmarks share: a big guild seeded straight into a SQLite store, a steady stream
// of chat from the sandbox, and autocannon's figures for one URL.
import { readFileSync } from 'node:fs';
import autocannon, { type Result } from 'autocannon';
import { openStore } from '../../src/db/store';
import { levelFromTotal } from '../../src/shared/leveling';
import { median } from './child';
import { bulkPost, type ProductInfo, type SandboxInfo } from './product-client';

/** Connections autocannon keeps open (the issues' figures are at 50). */
export const CONNECTIONS = 50;
const CHUNK = 5000;
const INGEST_TICK_MS = 20;
const DAY_MS = 86_400_000;

/** A deterministic spread of numbers in [0, 1) (the same store every time). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Seeds `count` members' levels, wallets and two ledger rows each for `guildId`, in chunks. */
export async function seed(databaseUrl: string, guildId: string, count: number): Promise<void> {
  const store = await openStore(databaseUrl);
  await store.migrate();
  const random = seeded(42);
  const now = Date.now();
  const { UserLevel, UserCurrency, Transaction } = store.models;
  for (let start = 0; start < count; start += CHUNK) {
    const ids = Array.from({ length: Math.min(CHUNK, count - start) }, (_, i) => start + i);
    const userId = (i: number) => String(400_000_000_000_000_000n + BigInt(i));
    const levels = ids.map((i) => {
      const totalXp = Math.floor(random() ** 3 * 200_000);
      const { level, xp } = levelFromTotal(totalXp);
      return { guildId, userId: userId(i), username: `member_${i}`, level, xp, totalXp, messagesCount: Math.floor(totalXp / 12) };
    });
    const wallets = ids.map((i) => {
      const totalEarned = Math.floor(random() ** 2 * 50_000);
      return { guildId, userId: userId(i), username: `member_${i}`, balance: Math.floor(totalEarned * random()), totalEarned };
    });
    const ledger = ids.flatMap((i) =>
      [0, 1].map(() => ({
        guildId,
        userId: userId(i),
        type: 'earn' as const,
        amount: 10,
        description: 'Chat rewards',
        createdAt: new Date(now - Math.floor(random() * 30 * DAY_MS)),
      })),
    );
    await store.sequelize.transaction(async (transaction) => {
      await UserLevel.bulkCreate(levels, { transaction });
      await UserCurrency.bulkCreate(wallets, { transaction });
      await Transaction.bulkCreate(ledger, { transaction });
    });
  }
  await store.close();
}

/**
 * Posts about `perSecond` messages a second until stopped, in a bulk post every 20 ms (100
 * messages at 5,000/s). Discord delivers a guild's chat message by message as it is written; the
 * sandbox sends a bulk post's messages back to back at about 30,000/s, so the 500-message posts
 * every 100 ms this made before were bursts at six times the rate asked for, each holding the
 * product's event loop for some 20 ms: the tail latency of reads measured those bursts.
 */
export function ingest(sandbox: SandboxInfo, perSecond: number): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    const started = Date.now();
    let posted = 0;
    while (running) {
      const due = Math.floor(((Date.now() - started) / 1000) * perSecond) - posted;
      if (due > 0) {
        await bulkPost(sandbox, sandbox.demo.channels.general, due);
        posted += due;
      }
      await new Promise((resolve) => setTimeout(resolve, INGEST_TICK_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

export interface Figures {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The serving process's CPU time (user and system) per answered request, in microseconds, when its pid was given. */
  cpuUs?: number;
}

/** CPU seconds (user + system) process `pid` has used, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * autocannon at 50 connections for `seconds` against one URL. With the serving process's pid, also
 * its CPU time per request: unlike requests/s, it does not move with what else the machine's cores
 * are doing (the load generator shares them).
 */
export async function load(url: string, cookie: string, seconds: number, pid?: number): Promise<Figures> {
  const cpuBefore = pid ? cpuSeconds(pid) : Number.NaN;
  const result: Result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: cookie ? { cookie } : {} });
  const cpu = pid ? cpuSeconds(pid) - cpuBefore : Number.NaN;
  const cpuUs = Number.isFinite(cpu) && result.requests.total > 0 ? Math.round((cpu * 1e6) / result.requests.total) : undefined;
  return {
    rps: Math.round(result.requests.average),
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...(cpuUs === undefined ? {} : { cpuUs }),
  };
}

/** The route's latency with its read cache expired: one request a second, `times` times; the median (ms). */
export async function uncachedLatency(product: ProductInfo, cookie: string, route: string, times = 5): Promise<number> {
  const latencies: number[] = [];
  for (let i = 0; i < times; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const started = performance.now();
    const response = await fetch(`${product.url}${route}`, { headers: { cookie } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${route} answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return Math.round(median(latencies) * 10) / 10;
}

/** Figures as one line. */
export const format = (f: Figures) =>
  `${f.rps} req/s, p99 ${f.p99} ` +
  `ms${f.cpuUs === undefined ? '' : `, ${f.cpuUs} µs CPU each`}${f.non2xx || f.errors ? ` (${f.non2xx} non-2xx, ${f.errors} errors)` : ''}`;
