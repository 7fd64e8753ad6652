// What each dashboard page costs a browser: the files it loads, with their bytes raw, gzip and
// brotli (as compressed here, at the build's settings) and on the wire (what the server actually
// sent, compressed or not), and the time until /login's main text shows on a slow phone.
//
// The whole product runs here in sandbox mode (in-memory SQLite) on the built dashboard
// (dist/web: run `npm run build` first), and Debian's Chromium (never downloaded) opens each
// route in a fresh browser context, so nothing is cached: /login signed out; /servers,
// /dashboard and every per-server page (/server/:id/<page>) signed in with the demo login (the
// session cookie is copied into the fresh context). A page counts as loaded when its <h1> shows
// and the network has been idle for 500 ms.
//
// Then /login is timed `runs` times under Chromium's emulation of a slow phone: 4x CPU slowdown
// (Emulation.setCPUThrottlingRate) and a 1.6 Mbit/s, 150 ms RTT link
// (Network.emulateNetworkConditions): from navigation start until its <h1> is in the document,
// and its largest contentful paint. The medians are printed. A benchmark: it prints figures only.
//
// Usage: node --import tsx scripts/bench/page-weight.ts [runs=3] [--files] [--time-only]
//   --files lists every file of every route; --time-only skips the weights and times /login only.
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

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 3);
const listFiles = process.argv.includes('--files');
const timeOnly = process.argv.includes('--time-only');

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const webRoot = path.join(repoRoot, 'dist/web');
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
/** The slow phone of the timing: CPU slowdown, link speed in bytes/s (1.6 Mbit/s) and round trip. */
const SLOW_PHONE = { cpuRate: 4, bytesPerSecond: (1.6 * 1_000_000) / 8, rttMs: 150 };

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
  return { state, serverId };
}

/** Times /login on the slow phone in a fresh context: until the <h1> is in the document, and the largest contentful paint. */
async function timeLogin(browser: Browser, baseURL: string): Promise<{ headingMs: number; lcpMs: number; files: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL });
  await context.addInitScript(() => {
    const marks = { heading: -1, lcp: -1 };
    (globalThis as { __pageWeight?: typeof marks }).__pageWeight = marks;
    new MutationObserver((_, observer) => {
      if (!document.querySelector('h1')) return;
      marks.heading = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_PHONE.rttMs,
    downloadThroughput: SLOW_PHONE.bytesPerSecond,
    uploadThroughput: SLOW_PHONE.bytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuRate });
  let files = 0;
  page.on('requestfinished', () => (files += 1));
  await page.goto('/login');
  await page.locator('h1').first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const marks = await page.evaluate(() => (globalThis as { __pageWeight?: { heading: number; lcp: number } }).__pageWeight ?? { heading: -1, lcp: -1 });
  await context.close();
  return { headingMs: Math.round(marks.heading), lcpMs: Math.round(marks.lcp), files };
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
const config = loadConfig({ PORT: '0', SANDBOX_PORT: '0', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
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

    const { state, serverId } = await demoSession(browser, baseURL);
    const serverPages = ['dashboard', ...FEATURES.map((feature) => feature.slug), TRANSACTIONS.slug];
    const routes = ['/servers', '/dashboard', ...serverPages.map((slug) => `/server/${serverId}/${slug}`)];
    for (const route of routes) {
      const context = await browser.newContext({ viewport: VIEWPORT, baseURL, storageState: state });
      printRoute(route.replace(serverId, ':id'), (await loadPage(context, route)).loaded);
      await context.close();
    }
  }

  report.line(`/login on a slow phone (${SLOW_PHONE.cpuRate}x CPU slowdown, 1.6 Mbit/s, ${SLOW_PHONE.rttMs} ms RTT), ${runs} runs in fresh contexts:`);
  const timings: { headingMs: number; lcpMs: number; files: number }[] = [];
  for (let run = 0; run < runs; run += 1) {
    const timing = await timeLogin(browser, baseURL);
    timings.push(timing);
    report.line(`  run ${run + 1}: heading in the document at ${timing.headingMs} ms, largest contentful paint ${timing.lcpMs} ms (${timing.files} requests)`);
  }
  report.line(`  median: heading ${median(timings.map((t) => t.headingMs))} ms, largest contentful paint ${median(timings.map((t) => t.lcpMs))} ms`);
  report.line('targets: /login at most 110 KB gzip of JS + CSS; its heading in under 2 s on the slow phone');
  // A run that timed /login only would drop the routes' figures.
  if (timeOnly) console.log('\nnot written to docs/performance.md: a timing-only run');
  else report.save();
} finally {
  await browser.close();
  await product.close();
}
