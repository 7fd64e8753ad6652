import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import send from 'koa-send';
import { NotFound } from '../core/errors';
import { chooseEncoding, type Encoding } from './encoding';
import { routePreloads } from './route-preloads';

const YEAR_SECONDS = 365 * 24 * 3600;
/** Where the built index.html takes the page's CSP nonce (see esbuild.config.mjs). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** The file name endings of the build's compressed copies (see esbuild.config.mjs). */
const COPY_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** The codings the build wrote a copy of the asset at `urlPath` in (none for images and fonts, or a missing asset). */
async function compressedCopies(root: string, urlPath: string): Promise<Encoding[]> {
  let file: string;
  try {
    file = path.join(root, path.normalize(decodeURIComponent(urlPath)));
  } catch {
    return [];
  }
  if (!file.startsWith(path.join(root, 'assets') + path.sep)) return [];
  const found = await Promise.all(
    (['br', 'gzip'] as const).map(async (coding) => ((await stat(file + COPY_SUFFIX[coding]).catch(() => null))?.isFile() ? coding : null)),
  );
  return found.filter((coding) => coding !== null);
}

/**
 * Sends a hashed asset: its brotli or gzip copy when the build wrote one and the request accepts
 * it (Content-Encoding; Content-Type still the asset's own), else the file itself. Every answer
 * for an asset that has copies says it varies by Accept-Encoding, the identity one included.
 */
async function sendAsset(ctx: Context, root: string): Promise<void> {
  const copies = await compressedCopies(root, ctx.path);
  if (copies.length > 0) ctx.vary('Accept-Encoding');
  const coding = chooseEncoding(ctx.get('Accept-Encoding'), copies);
  if (coding === 'identity') {
    await send(ctx, ctx.path, { root, gzip: false, brotli: false });
    return;
  }
  ctx.type = path.extname(ctx.path);
  ctx.set('Content-Encoding', coding);
  await send(ctx, ctx.path + COPY_SUFFIX[coding], { root, gzip: false, brotli: false });
}

/** A Discord id in a path, safe to write into the page. */
const SNOWFLAKE = /^\d{17,20}$/;

/**
 * The API answers a signed-in page asks for first, preloaded by the page so they travel with its
 * code rather than after it: what the shell reads on every page, on a server's page its settings
 * (nearly every server page reads them), and on the server's dashboard what that page shows. The
 * requests match the dashboard's own fetches (URL, credentials), so the browser hands them the
 * preloaded answers.
 */
function dataPreloads(pathname: string): string[] {
  const urls = [...SHELL_READS];
  const [first, serverId, page, ...rest] = pathname.split('/').filter(Boolean);
  if (first !== 'server' || !serverId || !SNOWFLAKE.test(serverId)) return preloadTags(urls);
  urls.push(`/api/servers/${serverId}/settings`);
  // The server's dashboard page (web/pages/server-dashboard.tsx) shows these three besides.
  if ((page === undefined || page === 'dashboard') && rest.length === 0) {
    for (const read of SERVER_DASHBOARD_READS) urls.push(`/api/servers/${serverId}/${read}`);
  }
  return preloadTags(urls);
}

/** What the signed-in shell reads on every page: the user's servers and communities, the bot's facts. */
const SHELL_READS = ['/api/auth/servers', '/api/auth/communities', '/api/meta'];

/** The reads of a server's dashboard page besides its settings. */
const SERVER_DASHBOARD_READS = ['overview', 'role-grants', 'diagnostics'];

/** A <link rel="preload"> per API read, as the dashboard's fetches ask (credentials included). */
function preloadTags(urls: string[]): string[] {
  return urls.map((url) => `<link rel="preload" href="${url}" as="fetch" crossorigin="use-credentials">`);
}

/** Options of serveDashboard. */
export interface ServeDashboardOptions {
  /** The session cookie's name: a request carrying it gets the signed-in pages' preloads. */
  sessionCookie?: string;
}

/**
 * Serves the built dashboard from `root` (dist/web): hashed files under /assets/ are cached for a
 * year as immutable and sent precompressed when the client accepts it; index.html is never cached
 * and carries the page's CSP nonce; every other non-API GET falls back to index.html so client
 * routes survive a reload, and preloads the code (and first data) of the page its path shows
 * (./route-preloads.ts). Unknown /api paths answer 404 JSON.
 */
export function serveDashboard(root: string, options: ServeDashboardOptions = {}): Middleware {
  const hasBuild = existsSync(path.join(root, 'index.html'));
  let preloadsFor = routePreloads(root);
  let builtPage = '';
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    // Any spelling of /api (the router matches one) is an API 404, never the dashboard's page.
    const lower = ctx.path.toLowerCase();
    if (lower === '/api' || lower.startsWith('/api/')) throw new NotFound(`No API route ${ctx.method} ${ctx.path}.`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    if (!hasBuild) throw new NotFound('The dashboard is not built. Run npm run build.');

    if (ctx.path.startsWith('/assets/')) {
      try {
        ctx.set('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
        await sendAsset(ctx, root);
        return;
      } catch {
        ctx.remove('Cache-Control');
        ctx.remove('Content-Encoding');
        throw new NotFound('No such asset.');
      }
    }
    // Read each time (it is tiny and `npm run dev` rewrites it), with this page's style nonce. It
    // cannot be precompressed, the nonce being new for every response: middleware/compress.ts
    // compresses each one.
    const html = await readFile(path.join(root, 'index.html'), 'utf8');
    const nonce = typeof ctx.state.cspNonce === 'string' ? ctx.state.cspNonce : '';
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    // A new build (`npm run dev` rewrites both) has new chunk names: read its manifest again.
    if (html !== builtPage) {
      if (builtPage) preloadsFor = routePreloads(root);
      builtPage = html;
    }
    const signedIn = options.sessionCookie !== undefined && ctx.cookies.get(options.sessionCookie) !== undefined;
    const preloads = [preloadsFor(ctx.path, signedIn), ...(signedIn ? dataPreloads(ctx.path) : [])].filter(Boolean).join('\n    ');
    const page = preloads ? html.replace('</head>', `  ${preloads}\n  </head>`) : html;
    ctx.body = page.replaceAll(NONCE_PLACEHOLDER, nonce);
  };
}
