import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { NotFound } from '../core/errors';

const YEAR_SECONDS = 365 * 24 * 3600;
/** Where the built index.html takes the page's CSP nonce (see esbuild.config.mjs). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * Serves the built dashboard from `root` (dist/web): hashed files under /assets/ are cached for a
 * year as immutable; index.html is never cached and carries the page's CSP nonce; every other non-API GET falls back to index.html
 * so client routes survive a reload. Unknown /api paths answer 404 JSON.
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
        await send(ctx, ctx.path, { root, gzip: false, brotli: false });
        return;
      } catch {
        ctx.remove('Cache-Control');
        throw new NotFound('No such asset.');
      }
    }
    // Read each time (it is tiny and `npm run dev` rewrites it), with this page's style nonce.
    const html = await readFile(path.join(root, 'index.html'), 'utf8');
    const nonce = typeof ctx.state.cspNonce === 'string' ? ctx.state.cspNonce : '';
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html.replaceAll(NONCE_PLACEHOLDER, nonce);
  };
}
