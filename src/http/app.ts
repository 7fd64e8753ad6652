import type Router from '@koa/router';
import Koa from 'koa';
import type { Services } from '../core/services';
import type { ProductMetrics } from '../metrics';
import { jsonBody, rawBodies } from './middleware/body';
import { compressResponses } from './middleware/compress';
import { sameOriginOnly } from './middleware/csrf';
import { errorHandler } from './middleware/errors';
import { metricsEndpoint, requestMetrics } from './middleware/metrics';
import { authRateLimit, mutationRateLimit, type RateLimitSettings } from './middleware/rate-limit';
import { requestLog } from './middleware/request-log';
import { securityHeaders } from './middleware/security-headers';
import { mountRoutes } from './mount';
import { rawBodyMatcher, routePath, type RouteSpec } from './route';
import { indexRoutes } from './route-index';
import { createRouter } from './router';
import { createSessionMiddleware, sessionCookieName } from './session';
import { serveDashboard } from './static';

/** What only the HTTP face needs; everything shared is in Services. */
export interface AppDeps {
  /** The built dashboard (dist/web). */
  webRoot: string;
  /** Overrides the default rate limits (tests that sign in many times raise them). */
  rateLimits?: RateLimitSettings;
  /** The Prometheus registry and request histogram; present only when METRICS_TOKEN is set. */
  metrics?: ProductMetrics;
}

/** The /api router with every declared route; exported so tests can walk its routes. */
export function createApiRouter(services: Services, routes: readonly RouteSpec[], deps: AppDeps): Router {
  return apiRouters(services, routes, deps).api;
}

/** The router over every route, and the middleware that dispatches each request to its group's routes (see indexRoutes). */
function apiRouters(services: Services, routes: readonly RouteSpec[], deps: AppDeps): { api: Router; dispatch: Koa.Middleware } {
  const limits = { auth: authRateLimit(deps.rateLimits?.auth).middleware };
  const mount = (subset: readonly RouteSpec[]) => {
    const router = createRouter({ prefix: '/api' });
    mountRoutes(router, subset, services, limits);
    return router;
  };
  const api = mount(routes);
  const indexed = routes.map((route) => ({ route, path: routePath(route) }));
  // Koa's middleware type does not know the router's ctx.params; the router adds them itself.
  const middlewareOf = (router: Router) => router.routes() as unknown as Koa.Middleware;
  const dispatch = indexRoutes('/api', indexed, (group) => middlewareOf(mount(group.map(({ route }) => route))), middlewareOf(api));
  return { api, dispatch };
}

/** Builds the Koa app: request metrics, security headers, errors, /metrics, the dashboard, sessions, the CSRF guard, JSON bodies and /api. Does not listen. */
export function createApp(services: Services, routes: readonly RouteSpec[], deps: AppDeps): { app: Koa; api: Router } {
  const { config } = services;
  // Proxy headers are believed only when TRUST_PROXY names the proxies in front; ctx.ip is then
  // the X-Forwarded-For entry that many hops from the right (the ones the proxies appended).
  const hops = config.trustProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  const logger = services.logger.child({ face: 'http' });
  const httpsPublic = config.publicUrl.startsWith('https://');
  const { api, dispatch } = apiRouters(services, routes, deps);

  const sessions = createSessionMiddleware(app, services.store, config.publicUrl);

  // Errors Koa sees after the response started: a client going away (a browser closing a file
  // download mid-stream) or sending a malformed request on the same kept-alive connection (HPE_*)
  // is the client's doing and logged at debug; anything else is logged as an error.
  app.on('error', (error: NodeJS.ErrnoException) => {
    const code = error.code ?? '';
    const clientSide = ['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(code) || code.startsWith('HPE_');
    if (clientSide) logger.debug({ code }, 'the client went away or sent a malformed request during the response');
    else logger.error({ err: error }, 'response failed');
  });
  app.use(requestLog(logger));
  if (deps.metrics) app.use(requestMetrics(deps.metrics));
  app.use(securityHeaders({ publicUrl: config.publicUrl, cdnBase: services.meta.cdnBase }));
  app.use(compressResponses());
  app.use(errorHandler(logger));
  // Before the dashboard, whose fallback would answer any other path with the index page.
  app.use(metricsEndpoint(deps.metrics, config.metricsToken));
  app.use(serveDashboard(deps.webRoot, { sessionCookie: sessionCookieName(config.publicUrl) }));
  if (httpsPublic) {
    // Browsers reach us over https (PUBLIC_URL), whatever the hop before us says: cookies are Secure.
    app.use((ctx, next) => {
      ctx.cookies.secure = true;
      return next();
    });
  }
  app.use(sessions.middleware);
  // A route that takes a file as its body (an upload) reads it itself: marked before the guard and the parser.
  app.use(rawBodies(rawBodyMatcher(routes)));
  app.use(sameOriginOnly(config.publicUrl));
  app.use(jsonBody(logger));
  app.use(mutationRateLimit(deps.rateLimits?.mutations).middleware);
  app.use(dispatch);
  app.use(api.allowedMethods({ throw: false }));
  return { app, api };
}
