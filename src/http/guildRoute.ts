import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z, ZodType } from 'zod';
import type { BotGateway, GuildSummary } from '../bot/gateway';
import type { User } from '../db/models/User';
import type { Store } from '../db/store';
import { requireGuild, requireUser, type AuthState } from './middleware/auth';
import { inputOf, validate } from './middleware/validate';

/** A valid request for a guild route, used by the access-control test that walks every route. */
export interface GuildRouteExample {
  body?: unknown;
  query?: Record<string, string>;
  /** Values for path parameters other than :serverId. */
  params?: Record<string, string>;
}

/** Each declared route's access level and example, by `METHOD /relative/path`. */
export const guildRouteSpecs = new Map<string, { access: 'manager' | 'member'; example: GuildRouteExample }>();

/** The prefix of every guild route, under /api. */
export const GUILD_ROUTE_PREFIX = '/servers/:serverId';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One /api/servers/:serverId route: who may call it, what it takes, what it does. */
export interface GuildRouteSpec<B extends ZodType, Q extends ZodType> {
  method: Method;
  /** Relative to /servers/:serverId, e.g. '/overview'. */
  path: string;
  /** 'manager': owner, Administrator or Manage Server. 'member': own-data routes. */
  access: 'manager' | 'member';
  body?: B;
  query?: Q;
  /** A request that succeeds for the demo guild's admin; required so the access test covers the route. */
  example: GuildRouteExample;
  /** Returns the JSON body; undefined answers 204. */
  handler(ctx: Context, input: { body: z.output<B>; query: z.output<Q>; guild: GuildSummary; user: User }): Promise<unknown>;
}

/**
 * Declares a guild route as one chain that reads top to bottom: signed in (401), input valid
 * (400), allowed in this guild from live gateway data (404/403), then the handler.
 */
export function guildRoute<B extends ZodType = ZodType<undefined>, Q extends ZodType = ZodType<undefined>>(
  router: Router,
  deps: { store: Store; gateway: BotGateway },
  spec: GuildRouteSpec<B, Q>,
): void {
  const schemas = { body: spec.body, query: spec.query };
  guildRouteSpecs.set(`${spec.method.toUpperCase()} ${spec.path}`, { access: spec.access, example: spec.example });
  router[spec.method](
    `${GUILD_ROUTE_PREFIX}${spec.path}`,
    requireUser(deps.store),
    validate(schemas),
    requireGuild(deps.gateway, spec.access),
    async (ctx) => {
      const input = inputOf(ctx, schemas);
      const state = ctx.state as AuthState;
      const result = await spec.handler(ctx, { body: input.body, query: input.query, guild: state.guild, user: state.user });
      if (result === undefined) ctx.status = 204;
      else ctx.body = result;
    },
  );
}
