// The dashboard's raid protection: GET /moderation/raid (raid mode as the card shows it), and
// POST /moderation/raid/start and /end, the functions /raid runs.
import { guildRoute, type RouteSpec } from '../../http/route';
import { RaidActionInput, type RaidResult, type RaidStatus } from '../../shared/raids';
import { endRaid, raidStatus, startRaid } from './raids';
import { dashboardActor } from './standing';

/** Raid protection's routes, spread into moderation's. */
export const raidRoutes: RouteSpec[] = [
  guildRoute({
    method: 'get',
    path: '/moderation/raid',
    example: {},
    cache: false,
    handler: ({ guild, services }): Promise<RaidStatus> => raidStatus(services, guild.id),
  }),
  guildRoute({
    method: 'post',
    path: '/moderation/raid/start',
    // Raid mode changes the server's verification level and invites: Manage Server's (admins), never a delegated editor's.
    access: 'admin',
    body: RaidActionInput,
    example: { body: { reason: 'Spam accounts joining' } },
    handler: async ({ body, guild, account, services }): Promise<RaidResult> => {
      const result = await startRaid(services, guild.id, { actor: dashboardActor(account), reason: body.reason ?? null });
      if (!result) throw new Error('a moderator’s start of raid mode came back empty');
      return result;
    },
  }),
  guildRoute({
    method: 'post',
    path: '/moderation/raid/end',
    access: 'admin',
    body: RaidActionInput,
    example: { body: {} },
    handler: async ({ body, guild, account, services }): Promise<RaidResult> => {
      const result = await endRaid(services, guild.id, { actor: dashboardActor(account), reason: body.reason ?? null });
      if (!result) throw new Error('a moderator’s end of raid mode came back empty');
      return result;
    },
  }),
];
