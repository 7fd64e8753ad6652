import { ButtonStyle, ComponentType, RESTJSONErrorCodes, type APIEmbed, type Guild, type GuildMember } from 'discord.js';
import type { OutgoingMessage } from '../../bot/messenger';
import { accountAgeGate, VERIFY_BUTTON_ID } from '../../shared/verification';
import { DiscordRefused } from '../../core/errors';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import { askDiscord } from '../../bot/discord-errors';
import { reactorsOf } from '../../bot/reactions';
import { VERIFY_EMOJI, type VerificationStatus } from '../../shared/welcome';
import type { GuildSettings } from '../../shared/settings';
import { changeRole, refusalOf, type RoleChange } from '../role-grants/public';
import { messageUrl } from '../../shared/discord-urls';

/** The rules message's embed: the rules and what to do. */
export function rulesEmbed(guildName: string, rules: string, button = false): APIEmbed {
  const how = button ? `React with ${VERIFY_EMOJI} or press Verify below` : `React with ${VERIFY_EMOJI} below`;
  return {
    title: `${guildName} · Rules`.slice(0, 256),
    description: `${rules}\n\n${how} to agree and get access.`,
    color: 0x2ecc71,
  };
}

/** The Verify button under the rules message, when it is on (an empty list takes it away). */
export function rulesComponents(button: boolean): NonNullable<OutgoingMessage['components']> {
  if (!button) return [];
  return [
    {
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.Button, style: ButtonStyle.Success, label: 'Verify', custom_id: VERIFY_BUTTON_ID, emoji: { name: VERIFY_EMOJI } }],
    },
  ];
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
  const embed = rulesEmbed(guild.name, settings.rulesMessage, settings.verificationButton);
  const components = rulesComponents(settings.verificationButton);
  const payload = await services.messenger.prepare(summary.id, { embeds: [embed], components });
  const previous = await services.guildState.get(summary.id, 'rulesMessage');
  let messageId: string | null = null;
  if (previous && !previous.missing && previous.channelId === channelId) {
    try {
      await askDiscord(() => channel.messages.edit(previous.messageId, { embeds: payload.embeds ?? [], components }), botName);
      messageId = previous.messageId;
    } catch (error) {
      if (!(error instanceof DiscordRefused && error.code === RESTJSONErrorCodes.UnknownMessage)) throw error;
    }
  } else if (previous && !previous.missing) {
    const old = guild.channels.cache.get(previous.channelId);
    if (old?.isTextBased()) await old.messages.delete(previous.messageId).catch(() => undefined);
  }
  if (!messageId) messageId = (await services.messenger.post(summary.id, channelId, { embeds: [embed], ...(components.length ? { components } : {}) })).id;
  const posted = messageId;
  await askDiscord(
    () => channel.messages.react(posted, VERIFY_EMOJI),
    botName,
    (code) =>
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
  return {
    rulesMessage: {
      channelId: state.channelId,
      messageId: state.messageId,
      url: messageUrl(services.meta, guildId, state.channelId, state.messageId),
      exists: !state.missing,
    },
  };
}

/**
 * Gives roles to a member, each through changeRole (one request per role; those they hold are
 * skipped). What can be given is given; a role Discord did not answer is queued for retry and is
 * no failure yet; the roles Discord refused are then thrown together in words, naming only them.
 * Returns the roles given now.
 */
async function giveRoles(
  services: Services,
  member: GuildMember,
  roles: { roleId: string; source: 'verification' | 'memberRole' }[],
  reason: string,
): Promise<string[]> {
  const given: string[] = [];
  const changes: RoleChange[] = [];
  for (const { roleId, source } of roles) {
    const change = await changeRole(services, member, { roleId, action: 'add', source, reason });
    if (change.status === 'done' && change.changed) given.push(roleId);
    changes.push(change);
  }
  const refused = refusalOf(changes);
  if (refused) throw refused;
  return given;
}

/** A member who agreed to the rules gets the verification role, and the member role when auto-assign is on. */
export async function verifyMember(services: Services, member: GuildMember): Promise<string[]> {
  const settings = await services.settings.get(member.guild.id);
  if (!settings.verificationEnabled || !settings.verificationRoleId) return [];
  const roles = [
    { roleId: settings.verificationRoleId, source: 'verification' as const },
    ...(settings.autoRoleEnabled && settings.memberRoleId ? [{ roleId: settings.memberRoleId, source: 'memberRole' as const }] : []),
  ];
  return giveRoles(services, member, roles, 'Rule verification: agreed to the rules');
}

/** Auto-assign on join: the member role at once, unless verification is on (then it comes with verification). */
export async function giveJoinRole(services: Services, member: GuildMember): Promise<string[]> {
  if (member.user.bot) return [];
  const settings = await services.settings.get(member.guild.id);
  if (!settings.autoRoleEnabled || !settings.memberRoleId || settings.verificationEnabled) return [];
  return giveRoles(services, member, [{ roleId: settings.memberRoleId, source: 'memberRole' }], 'Auto-assign member role');
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
    // The age gate holds here too: a young account's ✅ waits until they react again once old enough.
    if (!accountAgeGate(user.createdTimestamp, services.clock.ms(), settings.verificationMinAccountDays).allowed) continue;
    try {
      if ((await verifyMember(services, member)).length > 0) verified += 1;
    } catch (error) {
      services.logger.warn({ err: error, guildId: guild.id }, 'could not verify a member who reacted while the bot was offline');
    }
  }
  return verified;
}
