// What benchmarks of the whole product share: a sandbox process and a product process
// (scripts/bench/product-process.ts) started on known ports, a dashboard session signed in through
// the real OAuth flow, and small clients of the product's API, its bench control server and the
// sandbox's control API.
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnJson } from './child';

/** What sandbox-process.ts prints. */
export interface SandboxInfo {
  url: string;
  apiBase: string;
  cdnBase: string;
  gatewayUrl: string;
  botToken: string;
  oauth: { clientId: string; clientSecret: string };
  demo: { guildId: string; adminUserId: string; ownerUserId: string; channels: { general: string } };
}

/** What product-process.ts prints. */
export interface ProductInfo {
  url: string;
  controlUrl: string;
  databaseUrl: string;
}

/** Store totals of one guild, as the control server's GET /totals answers them. */
export interface StoreTotals {
  levelRows: number;
  messages: number;
  totalXp: number;
  walletRows: number;
  balance: number;
  totalEarned: number;
  transactions: number;
  dailyXp: number;
}

/** The product process's GET /state. */
export interface ProductState {
  received: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Memory of C++ objects bound to JS ones (Buffers included). */
  external: number;
  pending: number;
  oldestPendingAgeMs: number;
}

/** The product process's POST /sample/stop: what was sampled since POST /sample/start. */
export interface Sampled {
  samples: number;
  maxOldestPendingAgeMs: number;
  maxRss: number;
  /** Flushes that wrote something: how many, their longest and mean write duration, the most members in one. */
  flushes: { count: number; maxMs: number; meanMs: number; maxMembers: number };
  eventLoopDelay: { p50Ms: number; p99Ms: number; maxMs: number };
  /** Garbage collections: minor (scavenges) and major (mark-compact), how many and their total pause. */
  gc: { minor: { count: number; ms: number }; major: { count: number; ms: number } };
  /** SQL statements by their first words (only with PRODUCT_COUNT_QUERIES=1 in the product's environment). */
  queries?: Record<string, number>;
}

/** A free TCP port on loopback (free when asked; the product takes it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A sandbox process with `members` members and relaxed rate limits, ready for a product on `productPort`. */
export async function startSandboxProcess(members: number, productPort: number): Promise<{ child: ChildProcess; info: SandboxInfo }> {
  return spawnJson<SandboxInfo>('scripts/bench/sandbox-process.ts', {
    SANDBOX_MEMBERS: String(members),
    SANDBOX_RELAXED: '1',
    SANDBOX_REDIRECT_URIS: `http://127.0.0.1:${productPort}/auth/callback`,
  });
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let bundled: Promise<string> | null = null;

/**
 * product-process.ts bundled as `npm run build` bundles src/main.ts (esbuild, ESM, node20,
 * packages external), into scripts/bench/.out/, with an entry file of its own (main.ts starts a
 * second product when it is the entry), and the store writer's thread beside it as writer.js, where
 * src/db/writer.ts looks for it. Returns the entry's path relative to the repo.
 */
function productBundle(): Promise<string> {
  bundled ??= (async () => {
    const esbuild = await import('esbuild');
    const out = path.join(root, 'scripts/bench/.out');
    await esbuild.build({
      entryPoints: { 'product-process': path.join(root, 'scripts/bench/product-process.ts'), writer: path.join(root, 'src/writer.ts') },
      outdir: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    await writeFile(path.join(out, 'run.mjs'), "await import('./product-process.js');\n");
    return 'scripts/bench/.out/run.mjs';
  })();
  return bundled;
}

/**
 * The V8 flags the product runs with: npm start's (package.json), or PRODUCT_NODE_FLAGS (space
 * separated; empty for V8's defaults) to compare.
 */
async function productNodeFlags(): Promise<string[]> {
  const override = process.env.PRODUCT_NODE_FLAGS;
  if (override !== undefined) return override.split(' ').filter(Boolean);
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return (
    pkg.scripts.start
      .match(/node ((?:--\S+ )*)dist\/server\/main\.js/)?.[1]
      ?.trim()
      .split(' ')
      .filter(Boolean) ?? []
  );
}

/**
 * The product in its own process on `port`, against the sandbox process `sandbox`; resolves once
 * its bot is ready. It runs as production does (bundled, plain node: no tsx loader thread, no
 * source maps) unless PRODUCT_RUNTIME=tsx.
 */
export async function startProductProcess(
  sandbox: SandboxInfo,
  port: number,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; info: ProductInfo }> {
  const childEnv = { SANDBOX_INFO: JSON.stringify(sandbox), PORT: String(port), ...env };
  if (process.env.PRODUCT_RUNTIME === 'tsx') return spawnJson<ProductInfo>('scripts/bench/product-process.ts', childEnv);
  return spawnJson<ProductInfo>(await productBundle(), childEnv, { tsx: false, nodeFlags: await productNodeFlags() });
}

/** Cookies as a browser keeps them, from Set-Cookie headers. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Signs `userId` in to the product through the real OAuth flow (login, the sandbox's consent
 * page, the callback), as test/helpers/product.ts `signInAs` does; returns the Cookie header.
 */
export async function signIn(product: ProductInfo, userId: string): Promise<string> {
  const jar = new CookieJar();
  const login = await fetch(`${product.url}/api/auth/discord/login?redirect=%2Fdashboard`, { redirect: 'manual' });
  jar.take(login);
  const authorize = new URL(login.headers.get('location') ?? '');
  const form = new URLSearchParams(authorize.searchParams);
  form.set('user_id', userId);
  form.set('action', 'authorize');
  const consent = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  const callback = new URL(consent.headers.get('location') ?? '');
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`the consent page answered ${consent.status} without a code`);
  const done = await fetch(`${product.url}/api/auth/discord/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(product.url).origin, cookie: jar.header() },
    body: JSON.stringify({ code, state: callback.searchParams.get('state') }),
  });
  if (done.status !== 200) throw new Error(`the callback answered ${done.status}: ${await done.text()}`);
  jar.take(done);
  return jar.header();
}

/** A JSON request to the product's API as the signed-in browser (same-origin header on writes). */
export async function callApi<T>(product: ProductInfo, cookie: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${product.url}${path}`, {
    method,
    headers: { cookie, origin: new URL(product.url).origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A request to the product process's bench control server. */
export async function callControl<T>(product: ProductInfo, method: 'GET' | 'POST', path: string): Promise<T> {
  const response = await fetch(`${product.controlUrl}${path}`, { method });
  if (!response.ok) throw new Error(`control ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Posts `count` messages at once through the sandbox's control API. Without `authorIds` the
 * authors are every member who may post in the channel, in turn (so 5,000 members spread evenly).
 */
export async function bulkPost(sandbox: SandboxInfo, channelId: string, count: number, authorIds?: string[]): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/channels/${channelId}/messages/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count, ...(authorIds ? { authorIds } : {}) }),
  });
  if (response.status !== 201) throw new Error(`bulk post answered ${response.status}: ${await response.text()}`);
}

/** Waits until `check` answers true, polling every `everyMs`; throws after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Bytes as MB with one decimal. */
export function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
