import type { Middleware } from 'koa';
import type { SandboxServices } from './services';

/** Placeholder replaced in step 5. */
export function oauthMiddleware(_services: SandboxServices): Middleware {
  return async (_ctx, next) => next();
}
