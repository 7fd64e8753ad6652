import { ChannelType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { invalidFormBody } from '../errors';
import { presentEmoji, presentGuild } from '../presenters-guild';
import { presentChannel, presentRoles } from '../presenters';
import { ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { GuildRecord } from '../types';
import type { GuildPatch } from '../world-structure';
import { botGuild, requireGuildPermission } from './guards';
import { parseDiscordBody } from './validate';

/** The guild as `GET /guilds/:id` answers it: hub_type (Student Hubs) is gone from Discord's REST guild object; the gateway's still carries it. */
function presentRestGuild(guild: GuildRecord) {
  const { hub_type: _hubType, ...restGuild } = presentGuild(guild);
  return restGuild;
}

/** The guild settings the sandbox models (the spec has checked their types, lengths and enums). */
const guildPatchSchema = z.looseObject({
  name: z.string().optional(),
  description: z.string().nullish(),
  verification_level: z.number().int().nullish(),
  default_message_notifications: z.number().int().nullish(),
  explicit_content_filter: z.number().int().nullish(),
  preferred_locale: z.string().nullish(),
  afk_timeout: z.number().int().nullish(),
  afk_channel_id: z.string().nullish(),
  system_channel_id: z.string().nullish(),
  rules_channel_id: z.string().nullish(),
  system_channel_flags: z.number().int().nullish(),
});

/** The guild itself, its channels and its roles. */
export function registerGuildRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/guilds/:guildId', 'bot', ({ params, query }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const withCounts = query.get('with_counts') === 'true';
    return ok({
      ...presentRestGuild(guild),
      ...(withCounts ? { approximate_member_count: guild.members.size, approximate_presence_count: Math.ceil(guild.members.size / 3) } : {}),
    });
  });

  // Manage Server; the AFK channel must be a voice channel of the guild, the system and rules channels text ones.
  router.add('PATCH', '/guilds/:guildId', 'bot', ({ params, body, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageGuild);
    const input = parseDiscordBody(guildPatchSchema, body);
    const problems: Record<string, { code: string; message: string }> = {};
    const channelOfType = (field: string, id: string | null | undefined, type: ChannelType) => {
      if (id && guild.channels.get(id)?.type !== type)
        problems[field] = { code: 'CHANNEL_TYPE_INVALID', message: 'Channel is not of the right type in this guild.' };
    };
    channelOfType('afk_channel_id', input.afk_channel_id, ChannelType.GuildVoice);
    channelOfType('system_channel_id', input.system_channel_id, ChannelType.GuildText);
    channelOfType('rules_channel_id', input.rules_channel_id, ChannelType.GuildText);
    if (Object.keys(problems).length > 0) throw invalidFormBody(problems);
    const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;
    const patch: GuildPatch = {
      ...(given(input.name) ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(given(input.verification_level) ? { verificationLevel: input.verification_level } : {}),
      ...(given(input.default_message_notifications) ? { defaultMessageNotifications: input.default_message_notifications } : {}),
      ...(given(input.explicit_content_filter) ? { explicitContentFilter: input.explicit_content_filter } : {}),
      ...(given(input.preferred_locale) ? { preferredLocale: input.preferred_locale as GuildRecord['preferredLocale'] } : {}),
      ...(given(input.afk_timeout) ? { afkTimeout: input.afk_timeout as GuildRecord['afkTimeout'] } : {}),
      ...(input.afk_channel_id !== undefined ? { afkChannelId: input.afk_channel_id } : {}),
      ...(input.system_channel_id !== undefined ? { systemChannelId: input.system_channel_id } : {}),
      ...(input.rules_channel_id !== undefined ? { rulesChannelId: input.rules_channel_id } : {}),
      ...(given(input.system_channel_flags) ? { systemChannelFlags: input.system_channel_flags } : {}),
    };
    world.structure.updateGuild(guild, patch, { actorId: world.botUserId, reason });
    return ok(presentRestGuild(guild));
  });

  router.add('GET', '/guilds/:guildId/channels', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    return ok([...guild.channels.values()].map(presentChannel));
  });

  router.add('GET', '/guilds/:guildId/emojis', 'bot', ({ params }) => ok([...botGuild(world, params.guildId ?? '').emojis.values()].map(presentEmoji)));

  router.add('GET', '/guilds/:guildId/roles', 'bot', ({ params }) => ok(presentRoles(botGuild(world, params.guildId ?? ''))));
}
