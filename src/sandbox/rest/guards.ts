import { PermissionFlagsBits } from 'discord-api-types/v10';
import { missingAccess, missingPermissions, unknownChannel, unknownGuild, unknownMember, unknownMessage } from '../errors';
import { channelPermissions, guildPermissions, hasPermission } from '../permissions';
import type { ChannelRecord, GuildRecord, MemberRecord, MessageRecord } from '../types';
import type { World } from '../world';
import { botThread } from './thread-access';

/** The guild the bot acts in: 10004 if unknown, 50001 if the bot is not a member. */
export function botGuild(world: World, guildId: string): GuildRecord {
  const guild = world.guilds.get(guildId);
  if (!guild) throw unknownGuild();
  if (!guild.members.has(world.botUserId)) throw missingAccess();
  return guild;
}

/** A member of the guild, or 10007. */
export function guildMember(guild: GuildRecord, userId: string): MemberRecord {
  const member = guild.members.get(userId);
  if (!member) throw unknownMember();
  return member;
}

/** Throws 50013 unless the bot holds `permission` guild-wide. */
export function requireGuildPermission(world: World, guild: GuildRecord, permission: bigint): void {
  if (!hasPermission(guildPermissions(guild, world.botUserId), permission)) throw missingPermissions();
}

/**
 * A channel the bot can see, with its guild: 10003 if unknown, 50001 without View Channel,
 * 50013 without any of `required` (computed with the channel's overwrites).
 */
export function botChannel(world: World, channelId: string, required = 0n): { guild: GuildRecord; channel: ChannelRecord } {
  // A thread is read as a channel of its parent (thread-access.ts), so message routes serve threads too.
  const thread = world.threads.get(channelId);
  if (thread) return botThread(world, thread, required);
  const guild = world.guildOfChannel(channelId);
  const channel = guild?.channels.get(channelId);
  if (!guild || !channel) throw unknownChannel();
  if (!guild.members.has(world.botUserId)) throw missingAccess();
  const permissions = channelPermissions(guild, channel, world.botUserId);
  if (!hasPermission(permissions, PermissionFlagsBits.ViewChannel)) throw missingAccess();
  if (!hasPermission(permissions, required)) throw missingPermissions();
  return { guild, channel };
}

/** A message in the channel, or 10008. */
export function channelMessage(world: World, channelId: string, messageId: string): MessageRecord {
  const message = world.messages.get(messageId);
  if (!message || message.channelId !== channelId) throw unknownMessage();
  return message;
}
