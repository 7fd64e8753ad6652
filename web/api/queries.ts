// Typed reads of the API. Each hook names its URL as the query key (segments joined by '/')
// and checks the answer against the shared zod schema, so a contract drift shows as an error state.
import { useQuery, type QueryFunction } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import type { z } from 'zod';
import { CurrentUserSchema, ServerListSchema, ServerStatsSchema, type CurrentUser, type Server } from '../../src/shared/auth';
import { HealthSchema } from '../../src/shared/health';
import { PublicMetaSchema } from '../../src/shared/meta';
import { ServerOverviewSchema } from '../../src/shared/servers';
import { apiRequestError, getQueryFn } from './client';
import { metaAnswer, sessionAnswer, type SessionAnswer } from './session';

/** Query keys of the reads, shared by hooks and by code that updates the cache. */
export const queryKeys = {
  meta: ['/api/meta'],
  health: ['/api/health'],
  servers: ['/api/auth/servers'],
  communities: ['/api/auth/communities'],
  stats: ['/api/servers/stats'],
  overview: (serverId: string) => ['/api/servers', serverId, 'overview'],
} as const;

/** The default query function followed by a schema check. */
function parsedWith<S extends z.ZodType>(schema: S): QueryFunction<z.infer<S>> {
  const fetchJson = getQueryFn({ on401: 'throw' });
  return async (context) => schema.parse(await fetchJson(context));
}

const nullableUser = CurrentUserSchema.nullable();

/**
 * The user a session answer names under the schema: null when signed out; throws what the answer
 * failed with (an ApiRequestError, the network's error) or the schema's error.
 */
export function currentUserFrom(answer: SessionAnswer): CurrentUser | null {
  switch (answer.state) {
    case 'answered':
      return nullableUser.parse(answer.body);
    case 'failed':
      throw answer.status === 0 ? answer.error : apiRequestError(answer.status, answer.text);
    default:
      return null;
  }
}

/** What useCurrentUser answers: the shape of a query's result, for the few fields its callers read. */
export interface CurrentUserResult {
  /** The user, null when signed out, undefined while pending or failed. */
  data: CurrentUser | null | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/** Reads a session answer as a query result. */
function currentUserResult(answer: SessionAnswer): CurrentUserResult {
  if (answer.state === 'checking') return { data: undefined, isPending: true, isError: false, error: null };
  try {
    return { data: currentUserFrom(answer), isPending: false, isError: false, error: null };
  } catch (error) {
    return { data: undefined, isPending: false, isError: true, error };
  }
}

/**
 * The signed-in user, or null when signed out (401): the auth gate's GET /api/auth/me answer
 * (web/api/session.ts), schema-checked. One answer for the whole page, never asked twice.
 */
export function useCurrentUser(): CurrentUserResult {
  const answer = useSyncExternalStore(
    (onChange) => sessionAnswer.subscribe(onChange),
    () => sessionAnswer.peek(),
  );
  return useMemo(() => currentUserResult(answer), [answer]);
}

/** Public facts for links and the header: bot name, mode, OAuth/CDN/app bases. */
export function useMeta() {
  return useQuery({ queryKey: queryKeys.meta, queryFn: readMeta });
}

const fetchMeta = parsedWith(PublicMetaSchema);
let sharedMetaRead = false;

/** The first read takes the page's one GET /api/meta (session.ts), a failed one or a later read asks again. */
const readMeta: QueryFunction<z.infer<typeof PublicMetaSchema>> = async (context) => {
  const shared = sharedMetaRead ? null : await metaAnswer();
  sharedMetaRead = true;
  return shared === null ? fetchMeta(context) : PublicMetaSchema.parse(shared);
};

/** How often the header re-checks the bot's gateway connection. */
const HEALTH_POLL_MS = 15_000;

/** The process and gateway health behind the header's Online indicator. */
export function useHealth({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.health,
    enabled,
    queryFn: parsedWith(HealthSchema),
    // The one exception to "no interval refetch" (spec section 7): the Online indicator
    // reflects the bot's live gateway connection, which changes without any user action,
    // and /api/health is a cheap public read.
    refetchInterval: HEALTH_POLL_MS,
  });
}

/** The guilds the signed-in user manages, with bot presence and member counts. */
export function useServers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: queryKeys.servers, queryFn: parsedWith(ServerListSchema), enabled });
}

/** "Communities you're in": guilds with the bot where the user is a member without dashboard access. */
export function useCommunities({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: queryKeys.communities, queryFn: parsedWith(ServerListSchema), enabled });
}

/**
 * Where the user stands with one server id: 'found' with its row from the managed list or, failing
 * that, from the communities (access 'member'); 'missing' when both lists loaded without it;
 * 'loading' while they load; 'unknown' when a list failed (the page's own read then explains).
 */
export type ServerLookup = { status: 'found'; entry: Server } | { status: 'missing' | 'loading' | 'unknown' };

/** Looks `serverId` up in the user's managed servers, then in their communities. */
export function useServerLookup(serverId: string): ServerLookup {
  const servers = useServers();
  const managed = servers.data?.find((server) => server.id === serverId);
  const communities = useCommunities({ enabled: serverId !== '' && servers.isSuccess && !managed });
  const entry = managed ?? communities.data?.find((server) => server.id === serverId);
  if (entry) return { status: 'found', entry };
  if (servers.isError || communities.isError) return { status: 'unknown' };
  if (servers.isSuccess && communities.isSuccess) return { status: 'missing' };
  return { status: 'loading' };
}

/** The user's row for one server (see useServerLookup); undefined while loading or when not theirs. */
export function useServerEntry(serverId: string): Server | undefined {
  const lookup = useServerLookup(serverId);
  return lookup.status === 'found' ? lookup.entry : undefined;
}

/** Totals over the managed guilds that have the bot. */
export function useServerStats() {
  return useQuery({ queryKey: queryKeys.stats, queryFn: parsedWith(ServerStatsSchema) });
}

/** One guild's dashboard numbers and its 30-day activity. */
export function useServerOverview(serverId: string) {
  return useQuery({ queryKey: queryKeys.overview(serverId), queryFn: parsedWith(ServerOverviewSchema) });
}

/** The name of one of the user's servers, from the cached server list (undefined while it loads). */
export function useServerName(serverId: string): string | undefined {
  return useServerEntry(serverId)?.name;
}
