// Channels as a bot with Manage Channels changes them: created in a guild, modified (name, topic,
// slowmode, NSFW, position, category, overwrites, voice bitrate and user limit), deleted, and their
// permission overwrites put and deleted one at a time (Manage Roles). As on Discord, a bot may only
// allow or deny in an overwrite what it holds itself where the overwrite applies.
import { ChannelType, OverwriteType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import type { ActionContext } from '../audit-log';
import { invalidFormBody, maxChannels, missingPermissions, unknownRole, unknownUser } from '../errors';
import { ALL_PERMISSIONS, channelPermissions, guildPermissions, hasPermission } from '../permissions';
import { presentChannel } from '../presenters';
import { boostCount, premiumTier } from '../presenters-guild';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { ChannelRecord, GuildRecord, OverwriteRecord } from '../types';
import type { World } from '../world';
import type { ChannelPatch } from '../world-structure';
import { botChannel, botGuild, requireGuildPermission } from './guards';
import { deleteThread, modifyThread } from './threads';
import { parseDiscordBody } from './validate';

/** Discord's cap on a guild's channels. */
export const MAX_CHANNELS_PER_GUILD = 500;
/** Discord's cap on a text or announcement channel's topic (the spec's 4,096 is a forum's). */
export const MAX_TOPIC_LENGTH = 1024;
/** The highest voice bitrate by boost tier (0-3). */
const MAX_BITRATE = [96_000, 128_000, 256_000, 384_000] as const;
/** The channel types the sandbox models (Discord also has stage, directory, forum and media ones). */
const MODELLED_TYPES = [ChannelType.GuildText, ChannelType.GuildVoice, ChannelType.GuildCategory, ChannelType.GuildAnnouncement] as const;

/** A permission bit set as Discord takes it: a string of digits (discord.js) or a number. */
const bits = z
  .union([z.string().regex(/^\d+$/), z.number().int().nonnegative()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? 0n : BigInt(value)));

const overwriteSchema = z.looseObject({ id: z.string(), type: z.union([z.literal(0), z.literal(1)]).nullish(), allow: bits, deny: bits });

/**
 * The fields of a channel body the sandbox models, with Discord's ranges: the spec's schema for a
 * channel PATCH is a union with the DM one, which leaves a guild channel's ranges unchecked.
 */
const channelFields = {
  type: z.number().int().nullish(),
  topic: z.string().max(4096).nullish(),
  position: z.number().int().min(0).nullish(),
  nsfw: z.boolean().nullish(),
  rate_limit_per_user: z.number().int().min(0).max(21600).nullish(),
  parent_id: z.string().nullish(),
  permission_overwrites: z.array(overwriteSchema).max(100).nullish(),
  bitrate: z.number().int().min(8000).nullish(),
  user_limit: z.number().int().min(0).nullish(),
};
const channelCreateSchema = z.looseObject({ name: z.string().min(1).max(100), ...channelFields });
const channelPatchSchema = z.looseObject({ name: z.string().min(1).max(100).optional(), ...channelFields });
type ChannelBody = z.infer<typeof channelPatchSchema>;

/** Overwrites as given, each typed (a missing type is read from the id: a role's, else a member's), one per id. */
function toOverwrites(guild: GuildRecord, list: z.infer<typeof overwriteSchema>[]): OverwriteRecord[] {
  const byId = new Map<string, OverwriteRecord>();
  for (const o of list) {
    const type = o.type ?? (guild.roles.has(o.id) ? OverwriteType.Role : OverwriteType.Member);
    byId.set(o.id, { id: o.id, type, allow: o.allow, deny: o.deny });
  }
  return [...byId.values()];
}

/**
 * Refuses (50013) overwrites changing from `before` to `after` unless the bot holds Manage Roles in
 * `held` (its permissions where they apply) and every permission whose allow or deny changes.
 */
export function checkOverwriteChange(held: bigint, before: OverwriteRecord[], after: OverwriteRecord[]): void {
  let changed = 0n;
  let any = false;
  for (const id of new Set([...before, ...after].map((o) => o.id))) {
    const old = before.find((o) => o.id === id);
    const now = after.find((o) => o.id === id);
    if (old && now && old.allow === now.allow && old.deny === now.deny && old.type === now.type) continue;
    any = true;
    changed |= ((old?.allow ?? 0n) ^ (now?.allow ?? 0n)) | ((old?.deny ?? 0n) ^ (now?.deny ?? 0n));
  }
  if (any && !hasPermission(held, P.ManageRoles | changed)) throw missingPermissions();
}

/**
 * What the bot may allow or deny in an existing channel's overwrites, as Discord documents it: it
 * needs Manage Roles in the channel, and may set only permissions it holds in the guild (or in the
 * channel's category), unless an overwrite of the channel gives it Manage Roles there. So a bot that
 * denied @everyone Send Messages (and so itself) can still put it back.
 */
function overwriteGrantable(world: World, guild: GuildRecord, channel: ChannelRecord): bigint {
  const inChannel = channelPermissions(guild, channel, world.botUserId);
  if (!hasPermission(inChannel, P.ManageRoles)) return inChannel;
  const botRoles = guild.members.get(world.botUserId)?.roleIds ?? [];
  const ownOverwrite = channel.overwrites.some(
    (o) => (o.id === world.botUserId || (o.id !== guild.id && botRoles.includes(o.id))) && (o.allow & P.ManageRoles) !== 0n,
  );
  if (ownOverwrite) return ALL_PERMISSIONS;
  const parent = channel.parentId ? guild.channels.get(channel.parentId) : undefined;
  return (parent ? channelPermissions(guild, parent, world.botUserId) : guildPermissions(guild, world.botUserId)) | P.ManageRoles;
}

/**
 * Checks a channel body against what Discord allows of a channel of `type` in `guild` beyond the spec:
 * a 1,024-character topic, a category as parent (a category has none), the bitrate of the boost tier
 * and a user limit of 99 for voice. Answers the changes for the channel's kind (others are ignored, as
 * Discord ignores a topic on a voice channel).
 */
function channelChanges(guild: GuildRecord, type: ChannelRecord['type'], body: ChannelBody, selfId?: string): ChannelPatch {
  const text = type === ChannelType.GuildText || type === ChannelType.GuildAnnouncement;
  const voice = type === ChannelType.GuildVoice;
  const problems: Record<string, { code: string; message: string }> = {};
  if (text && body.topic && body.topic.length > MAX_TOPIC_LENGTH)
    problems.topic = { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_TOPIC_LENGTH} or fewer in length.` };
  if (body.parent_id) {
    const parent = guild.channels.get(body.parent_id);
    if (type === ChannelType.GuildCategory || parent?.type !== ChannelType.GuildCategory || parent.id === selfId)
      problems.parent_id = { code: 'CHANNEL_PARENT_INVALID', message: 'Category does not exist or cannot hold this channel.' };
  }
  const maxBitrate = MAX_BITRATE[premiumTier(boostCount(guild))];
  if (voice && body.bitrate && body.bitrate > maxBitrate)
    problems.bitrate = { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${String(maxBitrate)}.` };
  if (voice && body.user_limit && body.user_limit > 99)
    problems.user_limit = { code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 99.' };
  if (Object.keys(problems).length > 0) throw invalidFormBody(problems);
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(text && body.topic !== undefined ? { topic: body.topic || null } : {}),
    ...(body.position !== undefined && body.position !== null ? { position: body.position } : {}),
    ...(body.nsfw !== undefined && body.nsfw !== null ? { nsfw: body.nsfw } : {}),
    ...((text || voice) && body.rate_limit_per_user !== undefined && body.rate_limit_per_user !== null ? { rateLimitPerUser: body.rate_limit_per_user } : {}),
    ...(body.parent_id !== undefined && type !== ChannelType.GuildCategory ? { parentId: body.parent_id } : {}),
    ...(voice && body.bitrate !== undefined && body.bitrate !== null ? { bitrate: body.bitrate } : {}),
    ...(voice && body.user_limit !== undefined && body.user_limit !== null ? { userLimit: body.user_limit } : {}),
  };
}

/** The bot's action context: the bot as the actor, the request's audit-log reason. */
const botContext = (world: World, reason: string | null): ActionContext => ({ actorId: world.botUserId, reason });

/** Channel creation, modification, deletion and permission overwrites. */
export function registerChannelAdminRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('POST', '/guilds/:guildId/channels', 'bot', ({ params, body, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageChannels);
    const input = parseDiscordBody(channelCreateSchema, body);
    const type = input.type ?? ChannelType.GuildText;
    if (!(MODELLED_TYPES as readonly number[]).includes(type)) {
      throw invalidFormBody({ type: { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${MODELLED_TYPES.join(', ')}}.` } });
    }
    if (guild.channels.size >= MAX_CHANNELS_PER_GUILD) throw maxChannels();
    const changes = channelChanges(guild, type as ChannelRecord['type'], input);
    const overwrites = toOverwrites(guild, input.permission_overwrites ?? []);
    // Allowed in a new channel: what the bot holds in its category, or in the guild.
    const parent = changes.parentId ? guild.channels.get(changes.parentId) : undefined;
    checkOverwriteChange(parent ? channelPermissions(guild, parent, world.botUserId) : guildPermissions(guild, world.botUserId), [], overwrites);
    const channel = world.structure.createChannel(
      guild.id,
      { ...changes, name: input.name, type: type as ChannelRecord['type'], overwrites },
      botContext(world, reason),
    );
    return ok(presentChannel(channel), 201);
  });

  router.add('PATCH', '/channels/:channelId', 'bot', ({ params, body, reason }) => {
    const thread = world.threads.get(params.channelId ?? '');
    if (thread) return ok(world.threads.present(modifyThread(world, thread, body, reason), world.botUserId));
    const { guild, channel } = botChannel(world, params.channelId ?? '', P.ManageChannels);
    const input = parseDiscordBody(channelPatchSchema, body);
    let type: ChannelRecord['type'] = channel.type;
    if (input.type !== undefined && input.type !== null && input.type !== channel.type) {
      // Discord converts only between text and announcement channels.
      const convertible = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as number[];
      if (!convertible.includes(channel.type) || !convertible.includes(input.type)) {
        throw invalidFormBody({ type: { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${convertible.join(', ')}}.` } });
      }
      type = input.type as ChannelRecord['type'];
    }
    const changes = channelChanges(guild, type, input, channel.id);
    let overwrites: OverwriteRecord[] | undefined;
    if (input.permission_overwrites) {
      overwrites = toOverwrites(guild, input.permission_overwrites);
      checkOverwriteChange(overwriteGrantable(world, guild, channel), channel.overwrites, overwrites);
    }
    world.structure.updateChannel(
      channel,
      { ...changes, ...(type !== channel.type ? { type } : {}), ...(overwrites ? { overwrites } : {}) },
      botContext(world, reason),
    );
    return ok(presentChannel(channel));
  });

  router.add('DELETE', '/channels/:channelId', 'bot', ({ params, reason }) => {
    // Closing a DM answers the DM channel; it stays open for the next message.
    const dm = world.dms.channel(params.channelId ?? '');
    if (dm) return ok(world.dms.presentChannel(dm));
    const thread = world.threads.get(params.channelId ?? '');
    if (thread) {
      deleteThread(world, thread, reason);
      return ok(world.threads.present(thread));
    }
    const { channel } = botChannel(world, params.channelId ?? '', P.ManageChannels);
    world.structure.deleteChannel(channel, botContext(world, reason));
    return ok(presentChannel(channel));
  });

  const overwriteBody = z.looseObject({ type: z.union([z.literal(0), z.literal(1)]), allow: bits, deny: bits });

  router.add('PUT', '/channels/:channelId/permissions/:overwriteId', 'bot', ({ params, body, reason }) => {
    const { guild, channel } = botChannel(world, params.channelId ?? '');
    const input = parseDiscordBody(overwriteBody, body);
    const id = params.overwriteId ?? '';
    if (input.type === OverwriteType.Role && !guild.roles.has(id)) throw unknownRole();
    if (input.type === OverwriteType.Member && !world.users.has(id)) throw unknownUser();
    const next: OverwriteRecord = { id, type: input.type, allow: input.allow, deny: input.deny };
    const overwrites = [...channel.overwrites.filter((o) => o.id !== id), next];
    checkOverwriteChange(overwriteGrantable(world, guild, channel), channel.overwrites, overwrites);
    world.structure.updateChannel(channel, { overwrites }, botContext(world, reason));
    return noContent();
  });

  router.add('DELETE', '/channels/:channelId/permissions/:overwriteId', 'bot', ({ params, reason }) => {
    const { guild, channel } = botChannel(world, params.channelId ?? '');
    const held = channelPermissions(guild, channel, world.botUserId);
    if (!hasPermission(held, P.ManageRoles)) throw missingPermissions();
    const overwrites = channel.overwrites.filter((o) => o.id !== params.overwriteId);
    checkOverwriteChange(overwriteGrantable(world, guild, channel), channel.overwrites, overwrites);
    if (overwrites.length !== channel.overwrites.length) world.structure.updateChannel(channel, { overwrites }, botContext(world, reason));
    return noContent();
  });
}
