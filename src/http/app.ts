import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { BotGateway } from '../bot/gateway';
import type { RuntimeConfig } from '../config';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import type { PublicMeta } from '../shared/meta';
import { authRoutes } from '../features/auth/routes';
import type { DemoSignIn } from '../features/auth/demo';
import type { AuthServices } from '../features/auth/service';
import { serverRoutes } from '../features/servers/routes';
import { sameOriginOnly } from './middleware/csrf';
import { errorHandler } from './middleware/errors';
import { authRateLimit, mutationRateLimit, type RateLimitSettings } from './middleware/rateLimit';
import { createSessionMiddleware } from './session';
import { requestLog } from './middleware/requestLog';
import { systemRoutes } from './routes/system';
import { serveDashboard } from './static';

/** Everything the HTTP face needs, passed in so tests can build an app around any of it. */
export interface AppDeps {
  config: RuntimeConfig;
  store: Store;
  gateway: BotGateway;
  logger: Logger;
  /** Links for the dashboard (invite, CDN), pointing at the sandbox in sandbox mode. */
  meta: PublicMeta;
  /** The built dashboard (dist/web). */
  webRoot: string;
  /** Sign-in with Discord (or the sandbox's OAuth2). */
  auth: AuthServices;
  /** The demo login; present only in sandbox mode. */
  demo?: DemoSignIn;
  /** Overrides the default rate limits (tests that sign in many times raise them). */
  rateLimits?: RateLimitSettings;
}

/** The /api router with every route of the product; exported so tests can walk its routes. */
export function createApiRouter(deps: AppDeps): Router {
  const limits = { auth: authRateLimit(deps.rateLimits?.auth).middleware };
  const api = new Router({ prefix: '/api' });
  for (const router of [systemRoutes(deps), authRoutes(deps, limits.auth), serverRoutes(deps)]) {
    api.use(router.routes(), router.allowedMethods());
  }
  return api;
}

/** Builds the Koa app: JSON API under /api and the dashboard. Does not listen. */
export function createApp(deps: AppDeps, api: Router = createApiRouter(deps)): Koa {
  const app = new Koa({ proxy: deps.config.publicUrl.startsWith('https://') });
  const logger = deps.logger.child({ face: 'http' });

  const sessions = createSessionMiddleware(app, deps.store, deps.config.publicUrl);

  // Errors Koa sees after the response started (mostly a browser closing a file download
  // mid-stream). A client going away is routine; anything else is logged as an error.
  app.on('error', (error: NodeJS.ErrnoException) => {
    const aborted = ['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(error.code ?? '');
    if (aborted) logger.debug({ code: error.code }, 'client went away during the response');
    else logger.error({ err: error }, 'response failed');
  });
  app.use(requestLog(logger));
  app.use(errorHandler(logger));
  app.use(serveDashboard(deps.webRoot));
  app.use(sessions.middleware);
  app.use(sameOriginOnly(deps.config.publicUrl));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '256kb', encoding: 'utf-8' }));
  app.use(mutationRateLimit(deps.rateLimits?.mutations).middleware);
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: false }));
  return app;
}
