import type { Middleware } from 'koa';
import { Forbidden } from '../../core/errors';
import { HttpError } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses cross-site writes: every request other than GET, HEAD and OPTIONS, whatever its path
 * and however the path is spelled, must come from our own origin (`Sec-Fetch-Site: same-origin`,
 * or an `Origin` equal to PUBLIC_URL's), and carry JSON if it carries a body. Browsers always
 * send one of the two headers on such requests; a write route added later is covered as is. A
 * route that takes a file as its body (marked `ctx.state.rawBody`, see GuildRouteSpec.rawBody)
 * takes any Content-Type: the origin check is what keeps other sites out.
 */
export function sameOriginOnly(publicUrl: string): Middleware {
  const origin = new URL(publicUrl).origin;
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const site = ctx.get('Sec-Fetch-Site');
    const requestOrigin = ctx.get('Origin');
    const sameOrigin = site ? site === 'same-origin' : requestOrigin === origin;
    if (!sameOrigin) throw new Forbidden('Cross-site requests are not allowed.');
    const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && ctx.state.rawBody !== true && !ctx.is('application/json')) {
      throw new HttpError(415, 'unsupported_media_type', 'Send the request body as application/json.');
    }
    await next();
  };
}
