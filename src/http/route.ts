// The route helper: the one piece of src/http that features use. A feature declares its routes
// as data (method, path, who may call, the zod schemas of src/shared, the handler); the HTTP app
// mounts them as one chain that reads top to bottom: rate limit, signed in (401), input valid
// (400), allowed in this guild from live gateway data (404/403), then the handler.
import type { ReadCacheClass } from '../core/read-cache';
import type { Context } from 'koa';
import type { z, ZodType } from 'zod';
import type { GuildAccess } from '../core/access';
import type { Services } from '../core/services';
import type { GuildSummary } from '../bot/gateway';
import type { Account } from '../db/models/account';
import type { AccessLevel } from '../shared/access';

export { HttpError, Unauthorized } from './errors';
export { establishSession, endSession, sessionCheck } from './session';

/** HTTP methods a route may use. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The prefix of every guild route, under /api. */
export const GUILD_ROUTE_PREFIX = '/servers/:guildId';

/** The access a guild route needs; by default GET needs `view` and every other method `edit`. */
export type RouteAccess = Extract<AccessLevel, 'member' | 'view' | 'edit' | 'admin'>;

/** A valid request for a guild route, used by the access-matrix test that walks every route. */
export interface GuildRouteExample {
  body?: unknown;
  query?: Record<string, string>;
  /** Values for path parameters other than :guildId. */
  params?: Record<string, string>;
  /** The route takes a file as its body (rawBody): the tests send a short generated audio file. */
  upload?: 'audio';
}

/** What every handler receives: the parsed input, the services, and Koa's context for what is HTTP's alone. */
export interface RouteRequest<B extends ZodType, Q extends ZodType> {
  body: z.output<B>;
  query: z.output<Q>;
  params: Record<string, string>;
  services: Services;
  ctx: Context;
}

/** A signed-in request. */
export interface AccountRequest<B extends ZodType, Q extends ZodType> extends RouteRequest<B, Q> {
  account: Account;
}

/** A request on one guild the account may act in. */
export interface GuildRequest<B extends ZodType, Q extends ZodType> extends AccountRequest<B, Q> {
  guild: GuildSummary;
  access: GuildAccess;
}

interface RouteBase<B extends ZodType, Q extends ZodType> {
  method: Method;
  /** Under /api; for guild routes, relative to /api/servers/:guildId. */
  path: string;
  body?: B;
  query?: Q;
}

/** A route anyone may call (health, sign-in). */
export interface PublicRouteSpec<B extends ZodType = ZodType, Q extends ZodType = ZodType> extends RouteBase<B, Q> {
  kind: 'public';
  /** 'auth': the sign-in rate limit per client address. */
  limit?: 'auth';
  /** Returns the JSON body; undefined answers 204 (unless the handler set ctx.body). */
  handler(request: RouteRequest<B, Q>): unknown;
}

/** A route for any signed-in account (401 otherwise). */
export interface AccountRouteSpec<B extends ZodType = ZodType, Q extends ZodType = ZodType> extends RouteBase<B, Q> {
  kind: 'account';
  limit?: 'auth';
  handler(request: AccountRequest<B, Q>): unknown;
}

/** A route of one guild: /api/servers/:guildId/... */
export interface GuildRouteSpec<B extends ZodType = ZodType, Q extends ZodType = ZodType> extends RouteBase<B, Q> {
  kind: 'guild';
  /** Who may call it; GET defaults to `view`, every other method to `edit`. */
  access?: RouteAccess;
  /** A request that succeeds for the demo guild's admin; the access-matrix test sends it. */
  example: GuildRouteExample;
  /**
   * A GET's answer is kept per user and URL for a second (services.readCache), and forgotten when
   * anything in the guild is written. `'chat'` for an answer that follows the guild's chat (XP,
   * coins, the ledger): each XP flush (several a second while people talk) also marks it stale, so
   * it is read again in the background; other answers are not recomputed on every flush. `false`
   * for a route that answers through ctx (a download), or whose service keeps one answer for
   * everyone in the same cache (the leaderboard, which /leaderboard reads too): a second layer
   * would serve the first one's stale answer as fresh for another second.
   */
  cache?: false | ReadCacheClass;
  /**
   * The body is a file, read by the handler from `ctx.req` as it arrives (an upload with a progress
   * bar): the JSON body parser leaves it alone and the same-origin guard takes any Content-Type for
   * it (the origin is still checked). The handler enforces its own size limit while reading.
   */
  rawBody?: true;
  /**
   * The answer stays open and streams (Server-Sent Events): never cached nor compressed; the
   * handler sets ctx.body to the stream and returns nothing. Clients that only want the status (the
   * access matrix) close it once the headers arrive.
   */
  stream?: true;
  handler(request: GuildRequest<B, Q>): unknown;
}

/** Any route a feature declares. */
export type RouteSpec = PublicRouteSpec | AccountRouteSpec | GuildRouteSpec;

/** Declares a public route. */
export function publicRoute<B extends ZodType = ZodType<undefined>, Q extends ZodType = ZodType<undefined>>(
  spec: Omit<PublicRouteSpec<B, Q>, 'kind'>,
): RouteSpec {
  return { kind: 'public', ...spec } as PublicRouteSpec<B, Q> as RouteSpec;
}

/** Declares a route for signed-in accounts. */
export function accountRoute<B extends ZodType = ZodType<undefined>, Q extends ZodType = ZodType<undefined>>(
  spec: Omit<AccountRouteSpec<B, Q>, 'kind'>,
): RouteSpec {
  return { kind: 'account', ...spec } as AccountRouteSpec<B, Q> as RouteSpec;
}

/** Declares a guild route. */
export function guildRoute<B extends ZodType = ZodType<undefined>, Q extends ZodType = ZodType<undefined>>(
  spec: Omit<GuildRouteSpec<B, Q>, 'kind'>,
): RouteSpec {
  return { kind: 'guild', ...spec } as GuildRouteSpec<B, Q> as RouteSpec;
}

/** The access a guild route needs. */
export function routeAccess(route: GuildRouteSpec): RouteAccess {
  return route.access ?? (route.method === 'get' ? 'view' : 'edit');
}

/** Whether a request (method, path under the app) is for a route that takes its body as a raw stream (GuildRouteSpec.rawBody). */
export function rawBodyMatcher(routes: readonly RouteSpec[]): (method: string, path: string) => boolean {
  const patterns = routes
    .filter((route) => route.kind === 'guild' && route.rawBody)
    .map((route) => ({
      method: route.method.toUpperCase(),
      // Parameters match one path segment, as the router's do; the router matches the same spelling only.
      path: new RegExp(
        `^/api${routePath(route)
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/:[A-Za-z]+/g, '[^/]+')}$`,
      ),
    }));
  return (method, path) => patterns.some((pattern) => pattern.method === method && pattern.path.test(path));
}

/** The full path of a route under /api. */
export function routePath(route: RouteSpec): string {
  return route.kind === 'guild' ? `${GUILD_ROUTE_PREFIX}${route.path}` : route.path;
}
