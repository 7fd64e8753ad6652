// The dashboard's HTTP stack under load, against bare Koa measured in the same run (issue 13):
//   - bare Koa + @koa/router (scripts/bench/bare-koa.ts, its own process): GET /api/health;
//   - the product (its own process, on a SQLite store seeded with one guild of 100,000 members, a
//     sandbox Discord with 5,000 members in a third process): GET /api/health, signed-in
//     GET /api/auth/me, and every guild GET route the features declare (their access-matrix
//     example's query; routes whose example needs rows made first, and downloads, are listed as
//     skipped), each idle and while the sandbox posts about 5,000 messages/s.
// autocannon at 50 connections from this process; medians of `runs`. Targets: health >= 0.5x bare
// Koa; /api/auth/me >= 0.3x with p99 < 10 ms; each guild GET >= 2,000 req/s with p99 < 40 ms.
// All processes share this machine's cores.
//
// HTTP_LOAD_ONLY=<regex> keeps only the product's routes whose name matches (bare Koa always runs).
//
// Usage: node --import tsx scripts/bench/http-load.ts [members=100000] [runs=3] [seconds=5] [ingestPerSecond=5000]
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { FEATURES } from '../../src/features';
import { routePath, type GuildRouteSpec } from '../../src/http/route';
import { median, spawnJson, stop } from './child';
import { format, ingest, load, seed, type Figures } from './load-kit';
import { freePort, signIn, startProductProcess, startSandboxProcess } from './product-client';
import { benchReport } from './report';

const members = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 5);
const ingestPerSecond = Number(process.argv[5] ?? 5000);

/** Every guild GET the dashboard reads, as a URL path for the guild; or why it is skipped. */
function guildReads(guildId: string, selfId: string): { name: string; path: string }[] {
  const reads: { name: string; path: string }[] = [];
  for (const route of FEATURES.flatMap((feature) => feature.routes ?? [])) {
    if (route.kind !== 'guild' || route.method !== 'get') continue;
    const spec = route as GuildRouteSpec;
    const name = `GET ${spec.path}`;
    if (/export|backup|download/.test(spec.path)) {
      console.log(`skipped ${name}: a download, not a dashboard read`);
      continue;
    }
    let target = routePath(spec).replace(':guildId', guildId);
    for (const [param, value] of Object.entries(spec.example.params ?? {})) target = target.replace(`:${param}`, value);
    const query = Object.entries(spec.example.query ?? {}).map(([key, value]) => [key, value === ':self' ? selfId : value] as const);
    if (target.includes(':') || query.some(([, value]) => value.startsWith(':'))) {
      console.log(`skipped ${name}: its example needs rows made first`);
      continue;
    }
    reads.push({ name, path: `/api${target}${query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, v]))}` : ''}` });
  }
  return reads;
}

const directory = mkdtempSync(path.join(tmpdir(), 'bench-http-load-'));
const databaseUrl = `sqlite:${path.join(directory, 'bot.sqlite')}`;
const port = await freePort();
const { child: bareChild, info: bare } = await spawnJson<{ url: string }>('scripts/bench/bare-koa.ts');
const { child: sandboxChild, info: sandbox } = await startSandboxProcess(5000, port);
try {
  const guildId = sandbox.demo.guildId;
  const seeding = Date.now();
  await seed(databaseUrl, guildId, members);
  console.log(`seeded ${members} members in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
  const { child, info: product } = await startProductProcess(sandbox, port, { DATABASE_URL: databaseUrl });
  try {
    const cookie = await signIn(product, sandbox.demo.adminUserId);
    const reads = guildReads(guildId, sandbox.demo.adminUserId);
    const targets = [
      { name: 'bare Koa GET /api/health', url: `${bare.url}/api/health`, cookie: '', busy: false, pid: bareChild.pid },
      { name: 'GET /api/health', url: `${product.url}/api/health`, cookie: '', busy: false, pid: child.pid },
      { name: 'GET /api/auth/me', url: `${product.url}/api/auth/me`, cookie, busy: false, pid: child.pid },
      ...reads.flatMap((read) => [
        { name: read.name, url: `${product.url}${read.path}`, cookie, busy: false, pid: child.pid },
        { name: `${read.name} while ingesting`, url: `${product.url}${read.path}`, cookie, busy: true, pid: child.pid },
      ]),
    ];
    const only = process.env.HTTP_LOAD_ONLY ? new RegExp(process.env.HTTP_LOAD_ONLY) : null;
    if (only) targets.splice(1, targets.length, ...targets.slice(1).filter((target) => only.test(target.name)));
    const results = new Map<string, Figures[]>();
    for (let run = 1; run <= runs; run += 1) {
      for (const target of targets) {
        const posting = target.busy ? ingest(sandbox, ingestPerSecond) : null;
        const figures = await load(target.url, target.cookie, seconds, target.pid);
        await posting?.stop();
        if (posting) await new Promise((resolve) => setTimeout(resolve, 1000));
        results.set(target.name, [...(results.get(target.name) ?? []), figures]);
        console.log(`run ${run} ${target.name}: ${format(figures)} (load average ${loadavg()[0]?.toFixed(1)})`);
      }
    }
    const med = (name: string) => {
      const list = results.get(name) ?? [];
      const cpu = list.flatMap((f) => (f.cpuUs === undefined ? [] : [f.cpuUs]));
      return {
        rps: median(list.map((f) => f.rps)),
        p99: median(list.map((f) => f.p99)),
        ...(cpu.length ? { cpuUs: median(cpu) } : {}),
        non2xx: Math.max(0, ...list.map((f) => f.non2xx)),
        errors: Math.max(0, ...list.map((f) => f.errors)),
      };
    };
    const koa = med('bare Koa GET /api/health').rps;
    const report = benchReport('http-load', 'HTTP under load: the product against bare Koa (issue 13)');
    console.log('');
    report.line(`medians of ${runs} (${seconds} s each, 50 connections, a guild of ${members} members, ingest at ${ingestPerSecond} messages/s):`);
    for (const target of targets) {
      const f = med(target.name);
      report.line(`${target.name}: ${format(f)} = ${(f.rps / koa).toFixed(2)}x bare Koa`);
    }
    report.line('targets: /api/health >= 0.5x; /api/auth/me >= 0.3x with p99 < 10 ms; each guild GET >= 2000 req/s with p99 < 40 ms, also while ingesting');
    // A run of some routes only would replace the whole section with part of it.
    if (only) console.log('\nnot written to docs/performance.md: HTTP_LOAD_ONLY ran some routes only');
    else report.save();
  } finally {
    await stop(child);
  }
} finally {
  await stop(sandboxChild);
  await stop(bareChild);
}
