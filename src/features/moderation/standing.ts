// Who acts and whether they may: the actor (a moderator, or the bot on its own), the live guild and
// its members as Discord answers for them, and the standing checks every action passes before it
// touches Discord (the actor's rank against the target's, the bot's role and permissions).
import { PermissionFlagsBits, RESTJSONErrorCodes, type Guild, type GuildMember } from 'discord.js';
import { askDiscord } from '../../bot/discord-errors';
import { DiscordRefused, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { MAX_REASON_LENGTH, type CaseSource, type ModerationAction } from '../../shared/moderation';

/** Who acts: a moderator (from the dashboard or a command) or the bot itself (automatic). */
export interface Actor {
  userId: string;
  name: string;
  source: CaseSource;
}

/** The Discord permission each action needs of the bot (and of a moderator using a command). */
export const ACTION_PERMISSIONS: Record<ModerationAction, bigint> = {
  ban: PermissionFlagsBits.BanMembers,
  unban: PermissionFlagsBits.BanMembers,
  kick: PermissionFlagsBits.KickMembers,
  timeout: PermissionFlagsBits.ModerateMembers,
  untimeout: PermissionFlagsBits.ModerateMembers,
  warn: PermissionFlagsBits.ModerateMembers,
  note: PermissionFlagsBits.ModerateMembers,
};

/** Each permission as Discord's settings name it. */
export const PERMISSION_NAMES: Record<ModerationAction, string> = {
  ban: 'Ban Members',
  unban: 'Ban Members',
  kick: 'Kick Members',
  timeout: 'Timeout Members',
  untimeout: 'Timeout Members',
  warn: 'Timeout Members',
  note: 'Timeout Members',
};

/** The guild as discord.js holds it, or NotFound. */
export function liveGuild(services: Services, guildId: string): Guild {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  if (!guild) throw new NotFound('The bot is not in that server.');
  return guild;
}

/**
 * The target is not in the server. The dashboard's field is named; the sentence names no field,
 * since /kick and /warn call it `member`.
 */
export const notAMember = () => InvalidInput.field('targetId', 'is not a member of this server', 'That user is not a member of this server.');

/** The member, or null when the user is not in the guild; Discord failing to answer is said in words. */
export async function memberOf(guild: Guild, userId: string): Promise<GuildMember | null> {
  try {
    return await askDiscord(() => guild.members.fetch(userId), guild.members.me?.displayName ?? 'The bot');
  } catch (error) {
    if (error instanceof DiscordRefused && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser)) return null;
    throw error;
  }
}

/** Whether the user is banned, asked of Discord (not the cache); Discord failing to answer is said in words, not taken for "not banned". */
export async function isBanned(guild: Guild, userId: string): Promise<boolean> {
  try {
    await askDiscord(() => guild.bans.fetch({ user: userId, force: true }), guild.members.me?.displayName ?? 'The bot');
    return true;
  } catch (error) {
    if (error instanceof DiscordRefused && (error.code === RESTJSONErrorCodes.UnknownBan || error.code === RESTJSONErrorCodes.UnknownUser)) return false;
    throw error;
  }
}

/** A moderator acting from the dashboard, as the signed-in account. */
export const dashboardActor = (account: { userId: string; username: string }): Actor => ({
  userId: account.userId,
  name: account.username,
  source: 'dashboard',
});

/** A moderator acting through a command, as the member who ran it. */
export const commandActor = (invocation: { user: { id: string; displayName: string } }): Actor => ({
  userId: invocation.user.id,
  name: invocation.user.displayName,
  source: 'command',
});

/** What Discord shows in its audit log as the reason: who did it through the bot, and why (cut to what the audit log keeps). */
export const auditReason = (actor: Actor, reason: string) => `${actor.name}: ${reason}`.slice(0, MAX_REASON_LENGTH);

/** The bot acting on its own (the warning ladder, auto moderation, expiring bans). */
export function botActor(services: Services, guildId: string): Actor {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const me = guild?.members.me;
  return { userId: me?.id ?? services.gateway.client?.user?.id ?? '0', name: me?.displayName ?? 'the bot', source: 'automatic' };
}

/**
 * Refuses what the actor may not do: themselves, the owner, the bot, and (for people) a member
 * whose highest role is at or above their own; then what the bot cannot do: a member at or above
 * its highest role, or an action it lacks the permission for.
 */
export async function checkStanding(guild: Guild, actor: Actor, action: ModerationAction, target: GuildMember | null): Promise<void> {
  const me = guild.members.me;
  const botName = me?.displayName ?? 'The bot';
  if (target) {
    if (target.id === me?.id) throw new Forbidden(`${botName} cannot act on itself.`);
    if (actor.source !== 'automatic' && target.id === actor.userId && action !== 'note') throw new Forbidden('You cannot moderate yourself.');
    if (target.id === guild.ownerId && action !== 'note') throw new Forbidden('The server owner cannot be moderated.');
  }
  if (actor.source === 'dashboard' || actor.source === 'command') {
    if (actor.userId !== guild.ownerId && target && action !== 'note') {
      const moderator = await memberOf(guild, actor.userId);
      if (!moderator) throw new Forbidden('You are not a member of this server.');
      if (target.roles.highest.position >= moderator.roles.highest.position) {
        throw new Forbidden(`${target.displayName}'s highest role (${target.roles.highest.name}) is at or above yours, so you cannot ${action} them.`);
      }
    }
  }
  if (action === 'warn' || action === 'note') return;
  if (!me) throw new DiscordRefused(0, 'The bot is not in that server.');
  if (!me.permissions.has(ACTION_PERMISSIONS[action])) {
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${botName} needs the ${PERMISSION_NAMES[action]} permission. Give it to its role in Server Settings → Roles.`,
    );
  }
  if (target && action !== 'unban' && target.roles.highest.position >= me.roles.highest.position) {
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${target.roles.highest.name} is above ${botName}'s highest role. Move ${botName}'s role above it in Server Settings → Roles.`,
    );
  }
  if (target && action === 'timeout' && target.permissions.has(PermissionFlagsBits.Administrator)) {
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${target.displayName} is an administrator; Discord does not allow timing out administrators.`,
    );
  }
}
