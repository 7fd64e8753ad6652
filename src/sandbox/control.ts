import type { Middleware } from 'koa';
import type { SandboxServices } from './services';

/** Placeholder replaced in step 3. */
export function controlMiddleware(_services: SandboxServices): Middleware {
  return async (_ctx, next) => next();
}
