import { ChannelType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { ControlError, controlGuild, parseControlBody, requireMember } from './control-errors';
import { channelPermissions, guildPermissions, hasPermission } from './permissions';
import { presentGuild, presentVoiceState } from './presenters-guild';
import { ok, type Router } from './router';
import type { SandboxServices } from './services';
import type { GuildRecord } from './types';

const snowflake = z.string().regex(/^\d{17,20}$/, 'Must be a snowflake (17-20 digits).');

/** POST /_sandbox/guilds/:guildId/voice: a member joins, moves, leaves or toggles their own mute/deafen. */
export const voiceSchema = z.object({
  userId: snowflake,
  /** A voice channel to join or move to; null leaves voice; absent keeps the channel. */
  channelId: snowflake.nullable().optional(),
  selfMute: z.boolean().optional(),
  selfDeaf: z.boolean().optional(),
  selfVideo: z.boolean().optional(),
});

/** POST /_sandbox/guilds/:guildId/voice/server: a moderator server-mutes or deafens someone in voice. */
export const serverVoiceSchema = z.object({ actorId: snowflake, userId: snowflake, mute: z.boolean().optional(), deaf: z.boolean().optional() });

/** PATCH /_sandbox/guilds/:guildId: guild settings an admin changes in Discord. */
export const guildPatchSchema = z.object({
  afkChannelId: snowflake.nullable().optional(),
  afkTimeout: z.union([z.literal(60), z.literal(300), z.literal(900), z.literal(1800), z.literal(3600)]).optional(),
  systemChannelId: snowflake.nullable().optional(),
  /** Discord's verification level, 0 (None) to 4 (Highest). */
  verificationLevel: z.number().int().min(0).max(4).optional(),
});

/**
 * Voice and boosts as Discord's client allows them: only voice channels are joinable, Connect (and View
 * Channel) is needed to join, a timed-out member cannot join, server mute/deafen needs Mute/Deafen Members.
 */
export function registerVoiceControls(router: Router, services: SandboxServices): void {
  const { world } = services;

  const joinableChannel = (guild: GuildRecord, userId: string, channelId: string) => {
    const channel = guild.channels.get(channelId);
    if (!channel) throw new ControlError(404, 'unknown_channel', `No channel ${channelId} in ${guild.name}.`);
    if (channel.type !== ChannelType.GuildVoice)
      throw new ControlError(400, 'not_voice', `#${channel.name} is not a voice channel.`, { channelId: 'Not a voice channel.' });
    const allowed = channelPermissions(guild, channel, userId);
    if (!hasPermission(allowed, P.ViewChannel | P.Connect))
      throw new ControlError(403, 'missing_permissions', `User ${userId} lacks Connect in #${channel.name}.`);
    const until = guild.members.get(userId)?.communicationDisabledUntil;
    if (until && Date.parse(until) > world.clock.ms()) throw new ControlError(403, 'timed_out', `User ${userId} is timed out and cannot join voice.`);
  };

  router.add('POST', '/guilds/:guildId/voice', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(voiceSchema, body);
    requireMember(guild, input.userId);
    if (input.channelId) joinableChannel(guild, input.userId, input.channelId);
    else if (input.channelId === undefined && !guild.voice.has(input.userId)) {
      throw new ControlError(400, 'not_in_voice', `User ${input.userId} is not in voice; give a channelId to join.`, { channelId: 'Required to join voice.' });
    }
    const state = world.updateVoiceState(guild.id, input.userId, {
      ...(input.channelId !== undefined ? { channelId: input.channelId } : {}),
      ...(input.selfMute !== undefined ? { selfMute: input.selfMute } : {}),
      ...(input.selfDeaf !== undefined ? { selfDeaf: input.selfDeaf } : {}),
      ...(input.selfVideo !== undefined ? { selfVideo: input.selfVideo } : {}),
    });
    return ok(presentVoiceState(guild, input.userId, state));
  });

  router.add('POST', '/guilds/:guildId/voice/server', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(serverVoiceSchema, body);
    requireMember(guild, input.actorId);
    requireMember(guild, input.userId);
    const held = guildPermissions(guild, input.actorId);
    if ((input.mute !== undefined && !hasPermission(held, P.MuteMembers)) || (input.deaf !== undefined && !hasPermission(held, P.DeafenMembers))) {
      throw new ControlError(403, 'missing_permissions', `User ${input.actorId} may not server-mute or deafen here.`);
    }
    if (!guild.voice.has(input.userId)) throw new ControlError(400, 'not_in_voice', `User ${input.userId} is not connected to voice.`);
    const state = world.updateVoiceState(
      guild.id,
      input.userId,
      {
        ...(input.mute !== undefined ? { mute: input.mute } : {}),
        ...(input.deaf !== undefined ? { deaf: input.deaf } : {}),
      },
      { actorId: input.actorId },
    );
    return ok(presentVoiceState(guild, input.userId, state));
  });

  router.add('PATCH', '/guilds/:guildId', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(guildPatchSchema, body);
    if (input.afkChannelId && guild.channels.get(input.afkChannelId)?.type !== ChannelType.GuildVoice) {
      throw new ControlError(400, 'invalid_body', 'afkChannelId is not a voice channel of the guild.', { afkChannelId: 'Not a voice channel.' });
    }
    if (input.systemChannelId && guild.channels.get(input.systemChannelId)?.type !== ChannelType.GuildText) {
      throw new ControlError(400, 'invalid_body', 'systemChannelId is not a text channel of the guild.', { systemChannelId: 'Not a text channel.' });
    }
    world.structure.updateGuild(guild, input);
    return ok(presentGuild(guild));
  });

  // PUT or DELETE /_sandbox/guilds/:guildId/boosts/:userId: a member starts or stops boosting.
  const boost =
    (boosting: boolean) =>
    ({ params }: { params: Record<string, string> }) => {
      const guild = controlGuild(services, params.guildId ?? '');
      const userId = params.userId ?? '';
      requireMember(guild, userId);
      const member = world.setBoosting(guild.id, userId, boosting);
      return ok({ userId, premiumSince: member.premiumSince, boosts: presentGuild(guild).premium_subscription_count });
    };
  router.add('PUT', '/guilds/:guildId/boosts/:userId', 'none', boost(true));
  router.add('DELETE', '/guilds/:guildId/boosts/:userId', 'none', boost(false));
}
