// What each dashboard page costs a browser: the files it loads, with their bytes raw, gzip and
// brotli (as compressed here, at the build's settings) and on the wire (what the server actually
// sent, compressed or not), and the time until each route's main content shows on a slow phone.
//
// The whole product runs here in sandbox mode (in-memory SQLite) on the built dashboard
// (dist/web: run `npm run build` first), and Debian's Chromium (never downloaded) opens each
// route in a fresh browser context, so nothing is cached: /login signed out; /servers,
// /dashboard and every per-server page (/server/:id/<page>) signed in with the demo login (the
// session cookie is copied into the fresh context). A page counts as loaded when its <h1> shows
// and the network has been idle for 500 ms.
//
// Then every route (/login, the global pages, every server page and a member's moderation page)
// is timed `runs` times on the slow phone of ./slow-phone.ts (4x CPU, 1.6 Mbit/s, 150 ms RTT):
// until its main content shows, with the requests and bytes before it. The medians are printed.
// A benchmark: it prints figures only.
//
// Usage: node --import tsx scripts/bench/page-weight.ts [runs=3] [--files] [--time-only] [--list] [--only=TEXT]
//   --files lists every file of every route (and the requests before each route's main content);
//   --time-only skips the weights and only times the routes; --only=TEXT times the routes whose path has TEXT.
//   --list prints, per timed route, every request its first run started before the main content (start-end ms, type, bytes).
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Events } from 'discord.js';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startProduct } from '../../src/main';
import { DEMO_LOGIN_DEFAULTS } from '../../src/shared/demo-login';
import { FEATURES, TRANSACTIONS } from '../../web/navigation';
import { benchReport } from './report';
import { median } from './child';
import { SLOW_PHONE, timeRoute, type RouteTiming } from './slow-phone';

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 3);
const listFiles = process.argv.includes('--files');
const timeOnly = process.argv.includes('--time-only');
/** --list: after each timed route, every request of its first run that started before its main content. */
const listBefore = process.argv.includes('--list');
/** --only=TEXT: time only the routes whose path contains TEXT. */
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// BENCH_WEB_ROOT: another build's dist/web (a copy kept to compare before and after a change).
const webRoot = process.env.BENCH_WEB_ROOT ?? path.join(repoRoot, 'dist/web');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VIEWPORT = { width: 1280, height: 800 };

/** One file a page loaded. */
interface Loaded {
  url: string;
  type: string;
  raw: number;
  gzip: number;
  brotli: number;
  /** Body bytes as sent (after the server's Content-Encoding), without headers. */
  wire: number;
  encoding: string;
}

/** Compressed sizes at the build's settings (gzip level 9, brotli quality 11). */
function compressedSizes(body: Buffer): { gzip: number; brotli: number } {
  return {
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length,
  };
}

/** Records the responses of a page until `done` settles, then measures each. */
async function recordLoads(page: Page, done: () => Promise<void>): Promise<Loaded[]> {
  const responses: Response[] = [];
  const onResponse = (response: Response) => responses.push(response);
  page.on('response', onResponse);
  try {
    await done();
  } finally {
    page.off('response', onResponse);
  }
  const loaded: Loaded[] = [];
  for (const response of responses) {
    if (response.status() >= 300 && response.status() < 400) continue;
    // A live stream (the server page's /events) has no end to wait for.
    if (response.request().resourceType() === 'eventsource') continue;
    const body = await response.body().catch(() => null);
    if (!body) continue;
    const sizes = await response.request().sizes();
    loaded.push({
      url: response.url(),
      type: response.request().resourceType(),
      raw: body.length,
      ...compressedSizes(body),
      wire: sizes.responseBodySize,
      encoding: (await response.headerValue('content-encoding')) ?? 'identity',
    });
  }
  return loaded;
}

/** Opens `pathname` in `context` and waits for its heading and a quiet network. */
async function loadPage(context: BrowserContext, pathname: string): Promise<{ page: Page; loaded: Loaded[] }> {
  const page = await context.newPage();
  const loaded = await recordLoads(page, async () => {
    await page.goto(pathname);
    await page.locator('h1').first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
  });
  return { page, loaded };
}

/** Signs in with the demo login (the /test-auth form's identity) and returns the session as storage state. */
async function demoSession(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL });
  const page = await context.newPage();
  await page.goto('/test-auth');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Mock Login' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  const servers = (await page.evaluate(() => fetch('/api/auth/servers').then((response) => response.json()))) as { id: string; hasBot: boolean }[];
  const state = await context.storageState();
  await context.close();
  const serverId = servers.find((server) => server.hasBot)?.id;
  if (!serverId) throw new Error(`the demo admin (${DEMO_LOGIN_DEFAULTS.username}) manages no server with the bot`);
  const members = (await (await fetch(`${baseURL}/api/servers/${serverId}/members?q=a`, { headers: cookieHeader(state) })).json()) as {
    id: string;
    bot?: boolean;
  }[];
  const memberId = members.find((member) => !member.bot)?.id;
  if (!memberId) throw new Error(`no member of server ${serverId} matches "a"`);
  return { state, serverId, memberId };
}

type Session = Awaited<ReturnType<typeof demoSession>>;

/** The session's cookies as a Cookie header, for the API calls the benchmark makes itself. */
function cookieHeader(state: { cookies: { name: string; value: string }[] }) {
  return { cookie: state.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '), accept: 'application/json' };
}

/** Every signed-in route of the dashboard, with the demo server's and a member's ids in place. */
function signedInRoutes({ serverId, memberId }: Session): string[] {
  const serverPages = ['dashboard', ...FEATURES.map((feature) => feature.slug), TRANSACTIONS.slug, `moderation/members/${memberId}`];
  return ['/servers', '/dashboard', '/server-management', '/add-bot', ...serverPages.map((slug) => `/server/${serverId}/${slug}`)];
}

/** A route as printed: the ids replaced by their names. */
const routeName = (route: string, { serverId, memberId }: Session) => route.replace(serverId, ':id').replace(memberId, ':userId');

/** Times /login and every signed-in route `runs` times each on the slow phone and prints the medians. */
async function timeEveryRoute(baseURL: string): Promise<void> {
  const session = await demoSession(browser, baseURL);
  const routes = ['/login', ...signedInRoutes(session)].filter((route) => !only || route.includes(only));
  report.line('');
  report.line(
    `Main content on a slow phone (${SLOW_PHONE.cpuRate}x CPU slowdown, ${(SLOW_PHONE.downBytesPerSecond * 8) / 1e6} Mbit/s down, ` +
      `${(SLOW_PHONE.upBytesPerSecond * 8) / 1e3} kbit/s up, ${SLOW_PHONE.rttMs} ms RTT), fresh context, median of ${runs} runs:`,
  );
  report.line('  until <main> has its <h1> and no skeleton or aria-busy; requests started before it and their bytes on the wire');
  report.line(`  ${'route'.padEnd(40)} ${'main content'.padStart(12)} ${'requests'.padStart(9)} ${'bytes'.padStart(10)}   runs (ms)`);
  const medians: number[] = [];
  for (const route of routes) {
    const timings: RouteTiming[] = [];
    for (let run = 0; run < runs; run += 1) {
      const storageState = route === '/login' ? undefined : session.state;
      timings.push(await timeRoute(browser, { baseURL, pathname: route, viewport: VIEWPORT, storageState }));
    }
    const mainMs = median(timings.map((timing) => timing.mainMs));
    medians.push(mainMs);
    report.line(
      `  ${routeName(route, session).padEnd(40)} ${`${mainMs} ms`.padStart(12)} ${String(median(timings.map((t) => t.requests))).padStart(9)} ` +
        `${kb(median(timings.map((t) => t.bytes)))}    ${timings.map((t) => t.mainMs).join(', ')}`,
    );
    if (listFiles) console.log(`    first run's requests: ${timings[0]?.urls.join(' ') ?? ''}`);
    if (listBefore) {
      console.log(`    before main content (first run, shown at ${timings[0]?.mainMs ?? 0} ms): start-end ms, type, wire bytes, path`);
      for (const request of timings[0]?.list ?? []) {
        console.log(`      ${`${request.startMs}-${request.endMs}`.padStart(11)} ${request.type.padEnd(10)} ${kb(request.bytes)}  ${request.url}`);
      }
    }
  }
  report.line(`  slowest route's median ${Math.max(...medians)} ms; target: every route under 2000 ms with at most 12 requests before its main content`);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
const isCode = (file: Loaded) => file.type === 'script' || file.type === 'stylesheet';

/** Prints one route: its code (JS + CSS) and everything, raw / gzip / brotli / wire. */
const report = benchReport('page-weight', 'Page weight: bytes per dashboard route, and /login on a slow phone (issue 13)');

function printRoute(route: string, loaded: Loaded[]): void {
  const sum = (files: Loaded[], key: 'raw' | 'gzip' | 'brotli' | 'wire') => files.reduce((total, file) => total + file[key], 0);
  const code = loaded.filter(isCode);
  const line = (label: string, files: Loaded[]) =>
    `  ${label.padEnd(14)} ${String(files.length).padStart(3)} files  raw ${kb(sum(files, 'raw'))}  gzip ${kb(sum(files, 'gzip'))}  br ` +
    `${kb(sum(files, 'brotli'))}  wire ${kb(sum(files, 'wire'))}`;
  report.line(route);
  report.line(line('JS + CSS', code));
  report.line(line('everything', loaded));
  if (!listFiles) return;
  for (const file of loaded) {
    const name = new URL(file.url).pathname + new URL(file.url).search;
    console.log(`    ${file.type.padEnd(10)} ${kb(file.raw)} ${kb(file.gzip)} ${kb(file.brotli)} ${kb(file.wire)} ${file.encoding.padEnd(8)} ${name}`);
  }
}

if (!existsSync(path.join(webRoot, 'index.html'))) throw new Error('dist/web is missing: run `npm run build` first');
const config = loadConfig({ PORT: '0', SANDBOX_PORT: '0', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', DEMO_HISTORY: 'off' });
const product = await startProduct(config, {
  webRoot,
  logger: createLogger('silent'),
  rateLimits: { auth: { max: 1000, durationMs: 60_000 }, mutations: { max: 1000, durationMs: 60_000 } },
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  if (!product.client.isReady()) await once(product.client, Events.ClientReady);
  const baseURL = product.config.publicUrl;
  report.line('Page weight of the built dashboard; sizes: raw / gzip -9 / brotli q11 / as sent');

  if (!timeOnly) {
    const signedOut = await browser.newContext({ viewport: VIEWPORT, baseURL });
    printRoute('/login', (await loadPage(signedOut, '/login')).loaded);
    await signedOut.close();

    const session = await demoSession(browser, baseURL);
    for (const route of signedInRoutes(session)) {
      const context = await browser.newContext({ viewport: VIEWPORT, baseURL, storageState: session.state });
      printRoute(routeName(route, session), (await loadPage(context, route)).loaded);
      await context.close();
    }
  }

  await timeEveryRoute(baseURL);
  // A run that timed /login only would drop the routes' figures.
  if (timeOnly) console.log('\nnot written to docs/performance.md: a timing-only run');
  else report.save();
} finally {
  await browser.close();
  await product.close();
}
