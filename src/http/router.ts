import Router from '@koa/router';

/**
 * A router that matches one spelling of each path: case-sensitive and strict about trailing
 * slashes, so `/API/auth/logout` or `/api/auth/logout/` is a 404, never a second way in.
 */
export function createRouter(options: { prefix?: string } = {}): Router {
  return new Router({ ...options, sensitive: true, strict: true });
}
