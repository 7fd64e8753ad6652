import { PermissionFlagsBits as P, RESTJSONErrorCodes } from 'discord-api-types/v10';
import { DiscordApiError, missingAccess, missingPermissions, unknownChannel } from '../errors';
import { hasPermission } from '../permissions';
import { threadPermissions, type ThreadRecord } from '../threads';
import type { ChannelRecord, GuildRecord } from '../types';
import type { World } from '../world';

/** 403 160005: posting in a locked thread without Manage Threads. */
export const threadLocked = (): DiscordApiError => new DiscordApiError(403, RESTJSONErrorCodes.ThreadLocked, 'Thread is locked');

/**
 * A thread the bot can reach, as the channel routes read it: 10003 if its parent is gone, 50001 if
 * the bot cannot see it (no View Channel on the parent; a private thread it is not in, without Manage
 * Threads), 50013 without `required`. Sending in a thread takes Send Messages in Threads (asked for as
 * Send Messages), and a locked thread takes Manage Threads too (160005). `channel` is the thread read
 * as a channel of its parent: the thread's id and name, the parent's overwrites, from which Discord
 * computes a thread's permissions.
 */
export function botThread(world: World, thread: ThreadRecord, required = 0n): { guild: GuildRecord; channel: ChannelRecord; parent: ChannelRecord } {
  const guild = world.guilds.get(thread.guildId);
  const parent = guild?.channels.get(thread.parentId);
  if (!guild || !parent) throw unknownChannel();
  if (!guild.members.has(world.botUserId)) throw missingAccess();
  const permissions = threadPermissions(guild, parent, thread, world.botUserId);
  if (!hasPermission(permissions, P.ViewChannel)) throw missingAccess();
  const posting = (required & P.SendMessages) !== 0n;
  const needed = posting ? (required & ~P.SendMessages) | P.SendMessagesInThreads : required;
  if (!hasPermission(permissions, needed)) throw missingPermissions();
  if (posting && thread.locked && !hasPermission(permissions, P.ManageThreads)) throw threadLocked();
  return { guild, parent, channel: { ...parent, id: thread.id, name: thread.name, parentId: parent.id, lastMessageId: thread.lastMessageId } };
}
