import { ChannelType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { invalidChannelType, invalidFormBody, missingPermissions, notInVoice, unknownChannel, unknownRole, unknownVoiceState } from '../errors';
import { canManageRole, channelPermissions, guildPermissions, hasPermission, outranks } from '../permissions';
import { isManagedRole, presentMember } from '../presenters';
import { presentVoiceState } from '../presenters-guild';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { GuildRecord, MemberPatch, VoicePatch } from '../types';
import type { World } from '../world';
import { botGuild, guildMember, requireGuildPermission } from './guards';
import { parseDiscordBody } from './validate';

/**
 * Checks the voice part of a member edit (server mute, deafen, move or disconnect): Mute/Deafen/Move
 * Members, the target in voice (40032), a move only into a voice channel the bot may connect to.
 */
function checkVoicePatch(
  world: World,
  guild: GuildRecord,
  userId: string,
  parsed: { mute?: boolean | null; deaf?: boolean | null; channel_id?: string | null },
): VoicePatch | null {
  const voice: VoicePatch = {};
  if (typeof parsed.mute === 'boolean') voice.mute = parsed.mute;
  if (typeof parsed.deaf === 'boolean') voice.deaf = parsed.deaf;
  if (parsed.channel_id !== undefined) voice.channelId = parsed.channel_id;
  if (Object.keys(voice).length === 0) return null;
  const held = guildPermissions(guild, world.botUserId);
  if (voice.mute !== undefined && !hasPermission(held, P.MuteMembers)) throw missingPermissions();
  if (voice.deaf !== undefined && !hasPermission(held, P.DeafenMembers)) throw missingPermissions();
  if (voice.channelId !== undefined && !hasPermission(held, P.MoveMembers)) throw missingPermissions();
  if (!guild.voice.has(userId)) throw notInVoice();
  if (voice.channelId) {
    const channel = guild.channels.get(voice.channelId);
    if (!channel) throw unknownChannel();
    if (channel.type !== ChannelType.GuildVoice) throw invalidChannelType();
    if (!hasPermission(channelPermissions(guild, channel, world.botUserId), P.ViewChannel | P.Connect)) throw missingPermissions();
  }
  return voice;
}

/** Longest timeout Discord allows (28 days). */
export const MAX_TIMEOUT_MS = 28 * 86_400_000;

const memberPatchSchema = z.looseObject({
  nick: z.string().max(32).nullish(),
  roles: z.array(z.string()).nullish(),
  communication_disabled_until: z.string().nullish(),
  mute: z.boolean().nullish(),
  deaf: z.boolean().nullish(),
  channel_id: z.string().nullish(),
});

/** Throws 50013 unless the bot may give or take every role in `roleIds` (Manage Roles, strictly below its highest role, not managed). */
export function requireAssignableRoles(world: World, guild: GuildRecord, roleIds: string[]): void {
  requireGuildPermission(world, guild, P.ManageRoles);
  for (const roleId of roleIds) {
    const role = guild.roles.get(roleId);
    if (!role) throw unknownRole();
    if (isManagedRole(role) || !canManageRole(guild, world.botUserId, roleId)) throw missingPermissions();
  }
}

/** Throws 50013 unless the bot holds `permission` and outranks the target (never the owner). */
function requireModeration(world: World, guild: GuildRecord, targetId: string, permission: bigint): void {
  requireGuildPermission(world, guild, permission);
  if (!outranks(guild, world.botUserId, targetId)) throw missingPermissions();
}

/** Members: get, list, search, modify (nick, roles, timeout), kick, and single role add/remove. */
export function registerMemberRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/guilds/:guildId/members', 'bot', ({ params, query }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const limit = Number(query.get('limit') ?? 1);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw invalidFormBody({ limit: { code: 'NUMBER_TYPE_MAX', message: 'int value should be between 1 and 1000.' } });
    }
    const after = BigInt(query.get('after') ?? '0');
    const members = [...guild.members.values()]
      .filter((m) => BigInt(m.userId) > after)
      .sort((a, b) => (BigInt(a.userId) < BigInt(b.userId) ? -1 : 1))
      .slice(0, limit);
    return ok(members.map((m) => presentMember(world, m)));
  });

  router.add('GET', '/guilds/:guildId/members/search', 'bot', ({ params, query }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const needle = (query.get('query') ?? '').toLowerCase();
    const limit = Math.min(1000, Math.max(1, Number(query.get('limit') ?? 1) || 1));
    const found = [];
    for (const member of guild.members.values()) {
      if (found.length >= limit) break;
      const user = world.users.get(member.userId);
      const names = [user?.username, user?.globalName, member.nick].filter((n): n is string => typeof n === 'string');
      if (names.some((n) => n.toLowerCase().startsWith(needle))) found.push(presentMember(world, member));
    }
    return ok(found);
  });

  router.add('GET', '/guilds/:guildId/voice-states/:userId', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const userId = params.userId === '@me' ? world.botUserId : (params.userId ?? '');
    const state = guild.voice.get(userId);
    const member = guild.members.get(userId);
    if (!state || !member) throw unknownVoiceState();
    return ok({ ...presentVoiceState(guild, userId, state), member: presentMember(world, member) });
  });

  router.add('GET', '/guilds/:guildId/members/:userId', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    return ok(presentMember(world, guildMember(guild, params.userId ?? '')));
  });

  router.add('PATCH', '/guilds/:guildId/members/@me', 'bot', ({ params, body, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const parsed = parseDiscordBody(z.looseObject({ nick: z.string().max(32).nullish() }), body);
    if (!hasPermission(guildPermissions(guild, world.botUserId), P.ChangeNickname)) throw missingPermissions();
    const member = world.updateMember(guild.id, world.botUserId, { nick: parsed.nick ?? null }, { actorId: world.botUserId, reason });
    return ok(presentMember(world, member));
  });

  router.add('PATCH', '/guilds/:guildId/members/:userId', 'bot', ({ params, body, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const member = guildMember(guild, params.userId ?? '');
    const parsed = parseDiscordBody(memberPatchSchema, body);
    const patch: MemberPatch = {};
    if (parsed.nick !== undefined) {
      if (member.userId !== world.botUserId) requireModeration(world, guild, member.userId, P.ManageNicknames);
      patch.nick = parsed.nick || null;
    }
    if (parsed.roles !== undefined && parsed.roles !== null) {
      const next = parsed.roles.filter((id) => id !== guild.id);
      const changed = [...next.filter((id) => !member.roleIds.includes(id)), ...member.roleIds.filter((id) => !next.includes(id))];
      requireAssignableRoles(world, guild, changed);
      patch.roleIds = next;
    }
    if (parsed.communication_disabled_until !== undefined) {
      patch.communicationDisabledUntil = checkTimeout(world, guild, member.userId, parsed.communication_disabled_until ?? null);
    }
    const voice = checkVoicePatch(world, guild, member.userId, parsed);
    const updated = world.updateMember(guild.id, member.userId, patch, { actorId: world.botUserId, reason });
    if (voice) world.updateVoiceState(guild.id, member.userId, voice, { actorId: world.botUserId, reason });
    return ok(presentMember(world, updated));
  });

  router.add('DELETE', '/guilds/:guildId/members/:userId', 'bot', ({ params, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const member = guildMember(guild, params.userId ?? '');
    requireModeration(world, guild, member.userId, P.KickMembers);
    world.removeMember(guild.id, member.userId, { actorId: world.botUserId, reason });
    return noContent();
  });

  router.add('PUT', '/guilds/:guildId/members/:userId/roles/:roleId', 'bot', ({ params, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const member = guildMember(guild, params.userId ?? '');
    const roleId = params.roleId ?? '';
    requireAssignableRoles(world, guild, [roleId]);
    if (!member.roleIds.includes(roleId)) world.setMemberRoles(guild.id, member.userId, [...member.roleIds, roleId], { actorId: world.botUserId, reason });
    return noContent();
  });

  router.add('DELETE', '/guilds/:guildId/members/:userId/roles/:roleId', 'bot', ({ params, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const member = guildMember(guild, params.userId ?? '');
    const roleId = params.roleId ?? '';
    requireAssignableRoles(world, guild, [roleId]);
    if (member.roleIds.includes(roleId)) {
      world.setMemberRoles(
        guild.id,
        member.userId,
        member.roleIds.filter((id) => id !== roleId),
        { actorId: world.botUserId, reason },
      );
    }
    return noContent();
  });
}

/** Validates a timeout: Moderate Members, hierarchy, never an Administrator, at most 28 days ahead. */
function checkTimeout(world: World, guild: GuildRecord, targetId: string, until: string | null): string | null {
  requireModeration(world, guild, targetId, P.ModerateMembers);
  if (until === null) return null;
  const at = Date.parse(until);
  if (Number.isNaN(at) || at - world.clock.ms() > MAX_TIMEOUT_MS) {
    throw invalidFormBody({
      communication_disabled_until: { code: 'COMMUNICATION_DISABLED_UNTIL_INVALID', message: 'Must be a date no more than 28 days in the future.' },
    });
  }
  if ((guildPermissions(guild, targetId) & P.Administrator) !== 0n) throw missingPermissions();
  return new Date(at).toISOString();
}
