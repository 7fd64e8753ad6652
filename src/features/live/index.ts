import type { Feature } from '../../core/feature';
import { guildRoute, routeAccess, sessionCheck, type GuildRouteSpec } from '../../http/route';
import { liveState } from './state';
import { hearStore, memberJoinedLive, memberLeftLive, recheckGuildAccess, recheckMemberAccess, recheckRoleAccess } from './signals';
import { openLiveStream } from './stream';

/** GET /api/servers/:guildId/events: the server's live stream, for anyone who may view its dashboard. */
const eventsRoute = guildRoute({
  method: 'get',
  path: '/events',
  stream: true,
  example: {},
  handler: ({ ctx, services, guild, access }) => {
    openLiveStream(ctx, services, {
      guildId: guild.id,
      userId: access.userId,
      needed: routeAccess(eventsRoute as GuildRouteSpec),
      sessionOpen: sessionCheck(ctx, services.store, services.config.publicUrl),
    });
  },
});

/** Live updates: what changes in a server reaches its open dashboard pages without a reload. */
export const liveFeature: Feature = {
  name: 'live',
  routes: [eventsRoute],
  listeners: [recheckMemberAccess, memberLeftLive, memberJoinedLive, ...recheckRoleAccess, ...recheckGuildAccess],
  state: liveState,
  start(services) {
    const state = liveState.of(services);
    state.stopHearing = hearStore(services);
    services.activity.onFlushed((guildIds) => {
      for (const guildId of guildIds) services.live.publish(guildId, 'overview');
    });
  },
  stop(services) {
    const state = liveState.of(services);
    state.stopHearing?.();
    state.stopHearing = null;
    services.live.close();
  },
};
