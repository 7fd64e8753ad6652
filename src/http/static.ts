import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import send from 'koa-send';
import { NotFound } from '../core/errors';
import { chooseEncoding, type Encoding } from './encoding';

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

/**
 * Serves the built dashboard from `root` (dist/web): hashed files under /assets/ are cached for a
 * year as immutable and sent precompressed when the client accepts it; index.html is never cached
 * and carries the page's CSP nonce; every other non-API GET falls back to index.html so client
 * routes survive a reload. Unknown /api paths answer 404 JSON.
 */
export function serveDashboard(root: string): Middleware {
  const hasBuild = existsSync(path.join(root, 'index.html'));
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
    ctx.body = html.replaceAll(NONCE_PLACEHOLDER, nonce);
  };
}
