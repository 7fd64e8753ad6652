import { RESTJSONErrorCodes, type APIEmbed, type Guild, type GuildMember } from 'discord.js';
import { DiscordRefused } from '../../core/errors';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import { askDiscord } from '../../bot/discord-errors';
import { reactorsOf } from '../../bot/reactions';
import { VERIFY_EMOJI, type VerificationStatus } from '../../shared/welcome';
import type { GuildSettings } from '../../shared/settings';
import { messageUrl } from '../welcome/service';

/** The rules message's embed: the rules and what to do. */
export function rulesEmbed(guildName: string, rules: string): APIEmbed {
  return {
    title: `${guildName} · Rules`.slice(0, 256),
    description: `${rules}\n\nReact with ${VERIFY_EMOJI} below to agree and get access.`,
    color: 0x2ecc71,
  };
}

/** The guild as discord.js holds it, or a refusal in words. */
function liveGuild(services: Services, guildId: string): Guild {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  if (!guild) throw new DiscordRefused(RESTJSONErrorCodes.UnknownGuild, 'The bot is not in that server.');
  return guild;
}

/**
 * Posts the rules message (an embed) in the rules channel with the ✅ reaction, or edits the one
 * posted before when it is still there in the same channel; a message left in an old channel is
 * deleted. Its place is stored. Discord's refusals are thrown in words (the save is refused).
 */
export async function publishRulesMessage(services: Services, summary: GuildSummary, settings: GuildSettings): Promise<void> {
  const channelId = settings.rulesChannelId;
  if (!channelId || !settings.rulesMessage) return;
  const guild = liveGuild(services, summary.id);
  const botName = guild.members.me?.displayName ?? 'The bot';
  const channel = guild.channels.cache.get(channelId);
  if (!channel?.isTextBased()) throw new DiscordRefused(RESTJSONErrorCodes.UnknownChannel, 'The rules channel no longer exists.');
  const payload = await services.messenger.prepare(summary.id, { embeds: [rulesEmbed(guild.name, settings.rulesMessage)] });
  const previous = await services.guildState.get(summary.id, 'rulesMessage');
  let messageId: string | null = null;
  if (previous && !previous.missing && previous.channelId === channelId) {
    try {
      await askDiscord(() => channel.messages.edit(previous.messageId, { embeds: payload.embeds ?? [] }), botName);
      messageId = previous.messageId;
    } catch (error) {
      if (!(error instanceof DiscordRefused && error.code === RESTJSONErrorCodes.UnknownMessage)) throw error;
    }
  } else if (previous && !previous.missing) {
    const old = guild.channels.cache.get(previous.channelId);
    if (old?.isTextBased()) await old.messages.delete(previous.messageId).catch(() => undefined);
  }
  if (!messageId) messageId = (await services.messenger.post(summary.id, channelId, { embeds: [rulesEmbed(guild.name, settings.rulesMessage)] })).id;
  const posted = messageId;
  await askDiscord(() => channel.messages.react(posted, VERIFY_EMOJI), botName, (code) =>
    code === RESTJSONErrorCodes.MissingPermissions || code === RESTJSONErrorCodes.MissingAccess
      ? `${botName} cannot add reactions in #${channel.name}. Give its role Add Reactions and Read Message History there.`
      : undefined,
  );
  await services.guildState.set(summary.id, 'rulesMessage', { channelId, messageId: posted, missing: false });
}

/** Whether the stored rules message is gone (deleted in Discord) or was never posted while verification is on. */
export async function rulesMessageStale(services: Services, guildId: string, settings: GuildSettings): Promise<boolean> {
  if (!settings.verificationEnabled) return false;
  const state = await services.guildState.get(guildId, 'rulesMessage');
  return !state || state.missing || state.channelId !== settings.rulesChannelId;
}

/** Marks the rules message deleted, when `messageIds` include it. */
export async function noteDeletedMessages(services: Services, guildId: string, messageIds: readonly string[]): Promise<void> {
  const state = await services.guildState.get(guildId, 'rulesMessage');
  if (state && !state.missing && messageIds.includes(state.messageId)) await services.guildState.set(guildId, 'rulesMessage', { ...state, missing: true });
}

/** GET /verification: where the rules message is and whether it still exists. */
export async function verificationStatus(services: Services, guildId: string): Promise<VerificationStatus> {
  const state = await services.guildState.get(guildId, 'rulesMessage');
  if (!state) return { rulesMessage: null };
  return { rulesMessage: { channelId: state.channelId, messageId: state.messageId, url: messageUrl(services, guildId, state.channelId, state.messageId), exists: !state.missing } };
}

/**
 * Gives roles to a member, skipping those they hold, one request per role: each is an atomic add
 * on Discord's side, where a list would be the member's whole role list as the cache knows it and
 * undo a role given meanwhile (a reaction role). What can be given is given; the roles Discord
 * refused are then thrown together in words, naming only them.
 */
async function giveRoles(member: GuildMember, roleIds: string[], reason: string): Promise<string[]> {
  const missing = roleIds.filter((roleId) => !member.roles.cache.has(roleId));
  const botName = member.guild.members.me?.displayName ?? 'The bot';
  const given: string[] = [];
  const refused: { roleId: string; error: DiscordRefused }[] = [];
  for (const roleId of missing) {
    try {
      await askDiscord(() => member.roles.add(roleId, reason), botName, (code) =>
        code === RESTJSONErrorCodes.MissingPermissions ? `${botName} cannot give @${member.guild.roles.cache.get(roleId)?.name ?? roleId}: it needs Manage Roles and a role above it.` : undefined,
      );
      given.push(roleId);
    } catch (error) {
      if (!(error instanceof DiscordRefused)) throw error;
      refused.push({ roleId, error });
    }
  }
  const [first] = refused;
  if (first) throw new DiscordRefused(first.error.code, refused.map(({ error }) => error.message).join(' '));
  return given;
}

/** A member who agreed to the rules gets the verification role, and the member role when auto-assign is on. */
export async function verifyMember(services: Services, member: GuildMember): Promise<string[]> {
  const settings = await services.settings.get(member.guild.id);
  if (!settings.verificationEnabled || !settings.verificationRoleId) return [];
  const roles = [settings.verificationRoleId, ...(settings.autoRoleEnabled && settings.memberRoleId ? [settings.memberRoleId] : [])];
  return giveRoles(member, roles, 'Rule verification: agreed to the rules');
}

/** Auto-assign on join: the member role at once, unless verification is on (then it comes with verification). */
export async function giveJoinRole(services: Services, member: GuildMember): Promise<string[]> {
  if (member.user.bot) return [];
  const settings = await services.settings.get(member.guild.id);
  if (!settings.autoRoleEnabled || !settings.memberRoleId || settings.verificationEnabled) return [];
  return giveRoles(member, [settings.memberRoleId], 'Auto-assign member role');
}

/**
 * Honours what happened while the bot was offline: everyone who reacted ✅ to the rules message
 * and lacks the verification role gets it; a deleted rules message is noted for the page.
 */
export async function catchUpVerifications(services: Services, guild: Guild): Promise<number> {
  const settings = await services.settings.get(guild.id);
  const state = await services.guildState.get(guild.id, 'rulesMessage');
  if (!settings.verificationEnabled || !state || state.missing) return 0;
  const channel = guild.channels.cache.get(state.channelId);
  if (!channel?.isTextBased()) return 0;
  let message;
  try {
    // Asked of Discord even when cached: the cached copy's reactions are those the bot saw, not those added while it was away.
    message = await channel.messages.fetch({ message: state.messageId, force: true });
  } catch (error) {
    if ((error as { code?: number }).code === RESTJSONErrorCodes.UnknownMessage) await noteDeletedMessages(services, guild.id, [state.messageId]);
    return 0;
  }
  const reaction = message.reactions.cache.find((candidate) => candidate.emoji.name === VERIFY_EMOJI);
  if (!reaction) return 0;
  let verified = 0;
  for await (const user of reactorsOf(reaction)) {
    if (user.bot) continue;
    const member = await guild.members.fetch(user.id).catch(() => null);
    if (!member) continue;
    try {
      if ((await verifyMember(services, member)).length > 0) verified += 1;
    } catch (error) {
      services.logger.warn({ err: error, guildId: guild.id }, 'could not verify a member who reacted while the bot was offline');
    }
  }
  return verified;
}
