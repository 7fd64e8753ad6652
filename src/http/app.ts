import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { BotGateway } from '../bot/gateway';
import type { RuntimeConfig } from '../config';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import type { PublicMeta } from '../shared/meta';
import { errorHandler } from './middleware/errors';
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
}

/** Builds the Koa app: JSON API under /api and the dashboard. Does not listen. */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.config.publicUrl.startsWith('https://') });
  const logger = deps.logger.child({ face: 'http' });

  const api = new Router({ prefix: '/api' });
  const system = systemRoutes(deps);
  api.use(system.routes(), system.allowedMethods());

  app.use(requestLog(logger));
  app.use(errorHandler(logger));
  app.use(serveDashboard(deps.webRoot));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '256kb', encoding: 'utf-8' }));
  app.use(api.routes());
  app.use(api.allowedMethods({ throw: false }));
  return app;
}
