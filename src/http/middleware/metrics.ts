import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { NotFound } from '../../core/errors';
import type { ProductMetrics } from '../../metrics';
import { HttpError } from '../errors';

/** Where Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/**
 * The route pattern a request is counted under: the router's pattern when a route matched
 * (`/api/servers/:guildId/settings`), else one label per kind of path, so that raw paths (ids,
 * probes for /wp-admin) never become label values.
 */
export function routeLabel(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.path === METRICS_PATH) return METRICS_PATH;
  if (ctx.path.startsWith('/assets/')) return '/assets/*';
  const lower = ctx.path.toLowerCase();
  if (lower === '/api' || lower.startsWith('/api/')) return '/api/*';
  return '/*';
}

/** Times every request into the latency histogram, by method, route pattern and final status. */
export function requestMetrics(metrics: ProductMetrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.observeRequest(ctx.method, routeLabel(ctx), ctx.status, (performance.now() - started) / 1000);
    }
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries the token, compared in constant time (both sides hashed to one length). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * GET /metrics in Prometheus's text format. Without a token configured the path does not exist
 * (404); with one, a request without it, or with another, is a 401.
 */
export function metricsEndpoint(metrics: ProductMetrics | undefined, token: string | undefined): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH) return next();
    if (!metrics || !token) throw new NotFound('Metrics are off: set METRICS_TOKEN to serve them.');
    if (!bearerMatches(ctx.get('Authorization'), token)) {
      throw new HttpError(401, 'unauthorized', 'Send the METRICS_TOKEN as Authorization: Bearer <token>.', undefined, {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      });
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD')
      throw new HttpError(405, 'method_not_allowed', 'Only GET and HEAD are allowed on /metrics.', undefined, { Allow: 'GET, HEAD' });
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
