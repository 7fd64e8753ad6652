import Router from '@koa/router';
import type { Health } from '../../shared/health';
import type { AppDeps } from '../app';

/** Public routes: health (for the header and the container's HEALTHCHECK) and link metadata. */
export function systemRoutes(deps: AppDeps): Router {
  const router = new Router();

  router.get('/health', async (ctx) => {
    const db = (await deps.store.ping()) ? 'ok' : 'error';
    const body: Health = { status: db === 'ok' ? 'ok' : 'degraded', gateway: deps.gateway.health(), db };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = db === 'ok' ? 200 : 503;
    ctx.body = body;
  });

  router.get('/meta', (ctx) => {
    ctx.body = deps.meta;
  });

  return router;
}
