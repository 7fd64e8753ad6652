import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { NotFound } from './errors';

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Serves the built dashboard from `root` (dist/web): hashed files under /assets/ are cached for a
 * year as immutable; index.html is never cached; every other non-API GET falls back to index.html
 * so client routes survive a reload. Unknown /api paths answer 404 JSON.
 */
export function serveDashboard(root: string): Middleware {
  const hasBuild = existsSync(path.join(root, 'index.html'));
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) throw new NotFound(`No API route ${ctx.method} ${ctx.path}.`);
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
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root });
  };
}
