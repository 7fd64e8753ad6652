import Router from '@koa/router';
import type { AppDeps } from '../../http/app';
import { guildRoute } from '../../http/guildRoute';
import { requireUser, type AuthState } from '../../http/middleware/auth';
import { managedBotGuilds } from '../auth/access';
import { serverOverview, serverStats } from '../stats/service';

/** /api/servers/stats and the per-server dashboard. */
export function serverRoutes(deps: AppDeps): Router {
  const router = new Router();

  router.get('/servers/stats', requireUser(deps.store), async (ctx) => {
    const { user } = ctx.state as AuthState;
    ctx.body = await serverStats(deps.store, await managedBotGuilds(deps, user));
  });

  guildRoute(router, deps, {
    method: 'get',
    path: '/overview',
    access: 'manager',
    example: {},
    handler: async (_ctx, { guild }) => serverOverview(deps.store, guild),
  });

  return router;
}
