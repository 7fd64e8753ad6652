import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Services } from '../core/services';
import type { Account } from '../db/models/account';
import type { GuildAccess } from '../core/access';
import type { GuildSummary } from '../bot/gateway';
import { requireAccount, requireGuildAccess } from './middleware/auth';
import { inputOf, validate } from './middleware/validate';
import { readCacheKey } from '../core/read-cache';
import { routeAccess, routePath, type RouteSpec } from './route';

/** The handler's answer as the response: a JSON body, or 204 when it returned nothing and set no body. */
async function respond(ctx: Context, run: () => unknown): Promise<void> {
  const result = await run();
  if (result !== undefined) ctx.body = result;
  else if (ctx.body === undefined || ctx.body === null) ctx.status = 204;
}

/**
 * Mounts declared routes on the router, each as one chain: rate limit (sign-in routes), signed in
 * (401), input valid (400), allowed in the guild (404/403), then the handler.
 */
export function mountRoutes(router: Router, routes: readonly RouteSpec[], services: Services, limits: { auth: Middleware }): void {
  for (const route of routes) {
    const schemas = { body: route.body, query: route.query };
    const chain: Middleware[] = [];
    if (route.kind !== 'guild' && route.limit === 'auth') chain.push(limits.auth);
    if (route.kind !== 'public') chain.push(requireAccount(services.store));
    chain.push(validate(schemas));
    if (route.kind === 'guild') chain.push(requireGuildAccess(services, routeAccess(route)));
    const run = (ctx: Context) => {
      const input = inputOf(ctx, schemas);
      const params = ((ctx as Context & { params?: Record<string, string> }).params ?? {}) as Record<string, string>;
      const base = { body: input.body, query: input.query, params, services, ctx };
      if (route.kind === 'public') return route.handler(base);
      const account = ctx.state.account as Account;
      if (route.kind === 'account') return route.handler({ ...base, account });
      return route.handler({ ...base, account, guild: ctx.state.guild as GuildSummary, access: ctx.state.access as GuildAccess });
    };
    const read = route.method === 'get';
    // Not cached here: public and account routes, guild reads that opt out (downloads, answers their service keeps) and streams.
    if (route.kind !== 'guild' || (read && (route.cache === false || route.stream))) chain.push((ctx) => respond(ctx, () => run(ctx)));
    else if (read) {
      // Asked after the access check, so a cached answer never reaches someone the live gateway
      // data no longer allows; per user and access level, as answers differ by both.
      chain.push((ctx) => {
        const guild = ctx.state.guild as GuildSummary;
        const access = ctx.state.access as GuildAccess;
        return respond(ctx, () =>
          services.readCache.get(`${readCacheKey(guild.id, route.cache)}${access.userId}:${access.level}:${ctx.url}`, async () => run(ctx)),
        );
      });
    } else {
      // A write: whatever it changed is read afresh by the next request, whether it succeeded or not.
      chain.push(async (ctx) => {
        try {
          await respond(ctx, () => run(ctx));
        } finally {
          services.readCache.invalidate(`${(ctx.state.guild as GuildSummary).id}:`);
        }
      });
    }
    router[route.method](routePath(route), ...chain);
  }
}
