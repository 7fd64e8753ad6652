import type { Context, Middleware } from 'koa';
import ratelimit from 'koa-ratelimit';
import { TooManyRequests } from '../errors';

/** Requests allowed per window. */
export interface RateLimitSettings {
  auth: { max: number; durationMs: number };
  mutations: { max: number; durationMs: number };
}

/** Limits per window; auth is per client address, mutations per session (or address when signed out). */
export const RATE_LIMITS: RateLimitSettings = {
  auth: { max: 20, durationMs: 60_000 },
  mutations: { max: 120, durationMs: 60_000 },
};

/** A rate limiter over an in-memory map whose expired windows are swept, so it cannot grow forever. */
function limiter(name: string, limits: { max: number; durationMs: number }, id: (ctx: Context) => string): { middleware: Middleware; dispose(): void } {
  const db = new Map<string, { reset: number }>();
  const sweep = setInterval(() => {
    const now = Date.now() / 1000;
    for (const [key, entry] of db) if (entry.reset < now) db.delete(key);
  }, limits.durationMs);
  sweep.unref();
  const inner = ratelimit({
    driver: 'memory',
    db,
    namespace: name,
    duration: limits.durationMs,
    max: limits.max,
    id,
    throw: false,
  });
  const middleware: Middleware = async (ctx, next) => {
    await inner(ctx, next);
    if (ctx.status === 429) throw new TooManyRequests(Number(ctx.response.get('Retry-After')) || 1);
  };
  return { middleware, dispose: () => clearInterval(sweep) };
}

/** Limits sign-in attempts per client address. */
export function authRateLimit(limits = RATE_LIMITS.auth) {
  return limiter('auth', limits, (ctx) => ctx.ip);
}

/** Limits writes per session (the signed-in user), or per address without one. */
export function mutationRateLimit(limits = RATE_LIMITS.mutations) {
  const limited = limiter('mutations', limits, (ctx) => (ctx.session?.accountId ? `account:${ctx.session.accountId}` : `ip:${ctx.ip}`));
  const middleware: Middleware = (ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? next() : limited.middleware(ctx, next));
  return { middleware, dispose: limited.dispose };
}
