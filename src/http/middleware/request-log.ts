import type { Middleware } from 'koa';
import type { Logger } from '../../logger';

/** Logs one line per request: method, path, status, duration. Static assets log at debug. */
export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const entry = { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) };
      if (ctx.path.startsWith('/api/')) logger.info(entry, 'request');
      else logger.debug(entry, 'request');
    }
  };
}
