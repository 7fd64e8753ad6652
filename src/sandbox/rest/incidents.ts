// Discord's incident actions (raid protection): PUT /guilds/:id/incident-actions pauses invites
// and DMs until a time at most 24 hours ahead (Manage Server); the guild's `incidents_data` carries
// it, sent in GUILD_UPDATE. While invites are paused, nobody joins through an invite (the control
// API's invite accept answers 403 `invites_paused`); invites can still be made and listed, as on
// Discord.
import { GatewayDispatchEvents, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { invalidFormBody } from '../errors';
import { presentGatewayGuild } from '../presenters-guild';
import { ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { GuildRecord } from '../types';
import type { WorldState } from '../world-state';
import { botGuild, requireGuildPermission } from './guards';
import { parseDiscordBody } from './validate';

/** The furthest ahead Discord lets a pause run: 24 hours. */
export const MAX_INCIDENT_AHEAD_MS = 24 * 3_600_000;

const incidentSchema = z.looseObject({
  invites_disabled_until: z.string().nullish(),
  dms_disabled_until: z.string().nullish(),
});

/** Whether the guild's invites are paused now (a pause whose time passed is over). */
export function invitesPaused(world: WorldState, guild: GuildRecord): boolean {
  const until = guild.incidents?.invitesDisabledUntil;
  return Boolean(until && Date.parse(until) > world.clock.ms());
}

/** PUT /guilds/:guildId/incident-actions. */
export function registerIncidentRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('PUT', '/guilds/:guildId/incident-actions', 'bot', ({ params, body }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageGuild);
    const input = parseDiscordBody(incidentSchema, body);
    const problems: Record<string, { code: string; message: string }> = {};
    const until = (field: 'invites_disabled_until' | 'dms_disabled_until'): string | null => {
      const value = input[field];
      if (!value) return null;
      const at = Date.parse(value);
      if (Number.isNaN(at)) {
        problems[field] = { code: 'DATE_TIME_TYPE_PARSE', message: `Could not parse ${value}. Should be ISO8601.` };
        return null;
      }
      if (at > world.clock.ms() + MAX_INCIDENT_AHEAD_MS) {
        problems[field] = { code: 'BASE_TYPE_BAD', message: 'Must be at most 24 hours in the future.' };
        return null;
      }
      return new Date(at).toISOString();
    };
    const incidents = { invitesDisabledUntil: until('invites_disabled_until'), dmsDisabledUntil: until('dms_disabled_until') };
    if (Object.keys(problems).length > 0) throw invalidFormBody(problems);
    guild.incidents = incidents;
    world.emit(guild.id, { t: GatewayDispatchEvents.GuildUpdate, d: presentGatewayGuild(guild) });
    return ok(presentGatewayGuild(guild).incidents_data);
  });
}
