// The channel tools: purge, slowmode, lock and unlock of one channel, the same functions behind the
// commands and the dashboard. Each checks that the moderator may do it in Discord in that channel
// (their own permissions there, not only the server's), then that the bot may, does it, and records
// it as a case of the channel with the moderator.
import { OverwriteType, PermissionFlagsBits, RESTJSONErrorCodes, type Guild, type GuildBasedChannel, type TextChannel } from 'discord.js';
import { askDiscord } from '../../bot/discord-errors';
import { DiscordRefused, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { purgeFiltersLabel, slowmodeLabel, type ChannelToolResult, type ChannelToolState, type PurgeFilters } from '../../shared/channel-tools';
import { MAX_REASON_LENGTH, type ChannelAction } from '../../shared/moderation';
import { announceCase, cases, recordCase } from './cases';
import { isLocked, lockMemory, planPurge, readLockMemory, unlockPlan, type OverwriteBits, type SendState } from './channel-rules';
import { liveGuild, memberOf, type Actor, auditReason } from './standing';
import { counted } from '../../shared/words';

/** A channel whose messages and overwrites the tools handle: text, announcement or voice chat (threads have no overwrites). */
type ToolChannel = Extract<GuildBasedChannel, { permissionOverwrites: unknown; messages: unknown }>;

/** The permissions the tools need, as Discord's settings name them. */
const NAMES = new Map<bigint, string>([
  [PermissionFlagsBits.ViewChannel, 'View Channel'],
  [PermissionFlagsBits.ReadMessageHistory, 'Read Message History'],
  [PermissionFlagsBits.ManageMessages, 'Manage Messages'],
  [PermissionFlagsBits.ManageChannels, 'Manage Channels'],
  [PermissionFlagsBits.ManageRoles, 'Manage Permissions'],
]);

/** What each tool needs of the moderator in the channel (lock and unlock edit the channel's permissions, which Discord asks Manage Permissions for). */
const ACTOR_NEEDS: Record<ChannelAction, bigint[]> = {
  purge: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ReadMessageHistory, PermissionFlagsBits.ManageMessages],
  slowmode: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ManageChannels],
  lock: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ManageChannels, PermissionFlagsBits.ManageRoles],
  unlock: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ManageChannels, PermissionFlagsBits.ManageRoles],
};

/** What each tool needs of the bot in the channel: what Discord checks of the call it makes. */
const BOT_NEEDS: Record<ChannelAction, bigint[]> = {
  purge: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ReadMessageHistory, PermissionFlagsBits.ManageMessages],
  slowmode: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ManageChannels],
  lock: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ManageRoles],
  unlock: [PermissionFlagsBits.ViewChannel, PermissionFlagsBits.ManageRoles],
};

const DOING: Record<ChannelAction, string> = { purge: 'purge messages', slowmode: 'set slowmode', lock: 'lock it', unlock: 'unlock it' };

const names = (missing: bigint[]) => missing.map((bit) => NAMES.get(bit) ?? 'another').join(' and ');

/** The channel in the live guild, if the tools can act on it. */
function toolChannel(guild: Guild, channelId: string): ToolChannel {
  const channel = guild.channels.cache.get(channelId);
  if (!channel) throw new NotFound('That channel is not in this server.');
  if (channel.isThread() || !channel.isTextBased() || !('permissionOverwrites' in channel))
    throw InvalidInput.field('channelId', 'is not a text channel', 'That channel is not a text channel.');
  return channel as ToolChannel;
}

/** Refuses a moderator who may not do it in Discord in that channel; the bot acting on its own is not checked. */
async function requireActor(guild: Guild, channel: ToolChannel, actor: Actor, action: ChannelAction): Promise<void> {
  if (actor.source === 'automatic') return;
  const member = await memberOf(guild, actor.userId);
  if (!member) throw new Forbidden('You are not a member of this server.');
  const held = channel.permissionsFor(member);
  const missing = ACTOR_NEEDS[action].filter((bit) => !held.has(bit));
  if (missing.length > 0) throw new Forbidden(`You need the ${names(missing)} permission in #${channel.name} to ${DOING[action]}.`);
}

/** Refuses, in a sentence saying what to fix, what the bot lacks in the channel. */
function requireBot(guild: Guild, channel: ToolChannel, action: ChannelAction): void {
  const me = guild.members.me;
  if (!me) throw new DiscordRefused(0, 'The bot is not in that server.');
  const held = channel.permissionsFor(me);
  const missing = BOT_NEEDS[action].filter((bit) => !held.has(bit));
  if (missing.length > 0)
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${me.displayName} needs the ${names(missing)} permission in #${channel.name} to ${DOING[action]}. ` +
        `Give it to its role in Server Settings → Roles, or in the channel's permissions.`,
    );
}

/** The guild, the channel and the checks every tool passes first. */
async function prepare(services: Services, guildId: string, channelId: string, actor: Actor, action: ChannelAction) {
  const guild = liveGuild(services, guildId);
  const channel = toolChannel(guild, channelId);
  await requireActor(guild, channel, actor, action);
  requireBot(guild, channel, action);
  return { guild, channel, botName: guild.members.me?.displayName ?? 'The bot' };
}

/** @everyone's overwrite in the channel as bits, or null. */
function everyoneOverwrite(guild: Guild, channel: ToolChannel): OverwriteBits | null {
  const overwrite = channel.permissionOverwrites.cache.get(guild.roles.everyone.id);
  return overwrite ? { allow: overwrite.allow.bitfield, deny: overwrite.deny.bitfield } : null;
}

/** The channel as the tools show it. */
function stateOf(guild: Guild, channel: ToolChannel, override: Partial<ChannelToolState> = {}): ChannelToolState {
  return {
    channelId: channel.id,
    name: channel.name,
    slowmodeSeconds: 'rateLimitPerUser' in channel ? (channel.rateLimitPerUser ?? 0) : 0,
    locked: isLocked(everyoneOverwrite(guild, channel)),
    ...override,
  };
}

/** Records the tool's case on the channel and posts it to the log channel; returns its number. */
async function record(services: Services, guildId: string, channel: ToolChannel, actor: Actor, action: ChannelAction, reason: string, details: object) {
  const row = await recordCase(services, guildId, {
    action,
    targetId: channel.id,
    targetName: `#${channel.name}`,
    moderatorId: actor.userId,
    moderatorName: actor.name,
    reason: reason.slice(0, MAX_REASON_LENGTH),
    source: actor.source,
    details: { ...details },
  });
  if (!row) throw new Error('a channel tool case was taken for a duplicate');
  await announceCase(services, row);
  return row.caseNumber;
}

/** The channel's slowmode and lock, for the dashboard. */
export function channelToolState(services: Services, guildId: string, channelId: string): ChannelToolState {
  const guild = liveGuild(services, guildId);
  return stateOf(guild, toolChannel(guild, channelId));
}

/**
 * Deletes the newest `count` messages that pass the filters, among the channel's latest 100:
 * Discord's bulk delete for two or more, one delete for one. Those 14 days old or older are
 * skipped (Discord refuses to bulk delete them) and said so. With `before` (the message of a text
 * command), only messages older than it: `!purge 5` deletes the five messages before the command,
 * which stays, with the answer as its reply.
 */
export async function purgeChannel(
  services: Services,
  guildId: string,
  channelId: string,
  input: PurgeFilters & { count: number },
  actor: Actor,
  before?: string,
): Promise<ChannelToolResult> {
  const { guild, channel, botName } = await prepare(services, guildId, channelId, actor, 'purge');
  const { count, ...filters } = input;
  const latest = await askDiscord(() => channel.messages.fetch({ limit: 100, cache: false, ...(before ? { before } : {}) }), botName);
  const plan = planPurge(
    [...latest.values()].map((m) => ({ id: m.id, authorId: m.author.id, authorBot: m.author.bot, content: m.content, createdAt: m.createdTimestamp })),
    filters,
    count,
    services.clock.ms(),
  );
  const [first] = plan.ids;
  if (plan.ids.length === 1 && first) await askDiscord(() => channel.messages.delete(first), botName);
  else if (plan.ids.length > 1) await askDiscord(() => channel.bulkDelete(plan.ids, false), botName);

  const userName = filters.userId ? (guild.members.cache.get(filters.userId)?.displayName ?? null) : null;
  const filtersText = purgeFiltersLabel(filters, userName);
  const what = `${counted(plan.ids.length, 'message')}${filtersText ? ` ${filtersText}` : ''}`;
  const skipped =
    plan.skipped > 0 ? ` ${counted(plan.skipped, 'older message')} were skipped: Discord does not bulk delete messages 14 days old or older.` : '';
  const caseNumber =
    plan.ids.length > 0
      ? await record(services, guildId, channel, actor, 'purge', `Deleted ${what}`, { deleted: plan.ids.length, skipped: plan.skipped, filters })
      : null;
  const message = plan.ids.length > 0 ? `Deleted ${what} in #${channel.name}.${skipped}` : `No messages to delete in #${channel.name}.${skipped}`;
  return { message, state: stateOf(guild, channel), deleted: plan.ids.length, skipped: plan.skipped, caseNumber };
}

/** Sets the channel's slowmode (seconds between one member's messages; 0 turns it off). */
export async function setSlowmode(services: Services, guildId: string, channelId: string, seconds: number, actor: Actor): Promise<ChannelToolResult> {
  const { guild, channel, botName } = await prepare(services, guildId, channelId, actor, 'slowmode');
  const previous = stateOf(guild, channel).slowmodeSeconds;
  if (previous === seconds)
    return { message: `Slowmode in #${channel.name} is already ${slowmodeLabel(seconds)}.`, state: stateOf(guild, channel), caseNumber: null };
  if (!('setRateLimitPerUser' in channel)) throw InvalidInput.field('channelId', 'has no slowmode', 'That channel has no slowmode.');
  await askDiscord(() => (channel as TextChannel).setRateLimitPerUser(seconds, auditReason(actor, `slowmode ${slowmodeLabel(seconds)}`)), botName);
  const said = seconds === 0 ? `Slowmode turned off in #${channel.name}` : `Slowmode in #${channel.name} set to ${slowmodeLabel(seconds)}`;
  const caseNumber = await record(services, guildId, channel, actor, 'slowmode', said, { seconds, previous });
  return { message: `${said}.`, state: stateOf(guild, channel, { slowmodeSeconds: seconds }), caseNumber };
}

/** Whether discord.js's overwrite option for a Send Messages state. */
const overwriteValue = (state: SendState) => (state === 'allow' ? true : state === 'deny' ? false : null);

/** Denies @everyone Send Messages in the channel, remembering (on the case) what the overwrite was, so unlock puts it back. */
export async function lockChannel(services: Services, guildId: string, channelId: string, actor: Actor): Promise<ChannelToolResult> {
  const { guild, channel, botName } = await prepare(services, guildId, channelId, actor, 'lock');
  const current = everyoneOverwrite(guild, channel);
  if (isLocked(current)) return { message: `#${channel.name} is already locked.`, state: stateOf(guild, channel), caseNumber: null };
  const previous = lockMemory(current);
  await askDiscord(
    () => channel.permissionOverwrites.edit(guild.roles.everyone, { SendMessages: false }, { reason: auditReason(actor, 'lock'), type: OverwriteType.Role }),
    botName,
  );
  const caseNumber = await record(services, guildId, channel, actor, 'lock', `Locked #${channel.name}`, { previous });
  return {
    message: `Locked #${channel.name}: members cannot send messages there until it is unlocked.`,
    state: stateOf(guild, channel, { locked: true }),
    caseNumber,
  };
}

/** Puts @everyone's Send Messages back as it was before the channel's last lock (read from its case, so it survives restarts). */
export async function unlockChannel(services: Services, guildId: string, channelId: string, actor: Actor): Promise<ChannelToolResult> {
  const { guild, channel, botName } = await prepare(services, guildId, channelId, actor, 'unlock');
  const current = everyoneOverwrite(guild, channel);
  if (!isLocked(current)) return { message: `#${channel.name} is not locked.`, state: stateOf(guild, channel), caseNumber: null };
  const last = await cases(services, guildId).findOne({ where: { targetId: channel.id, action: ['lock', 'unlock'] }, order: [['caseNumber', 'DESC']] });
  const memory = last?.action === 'lock' ? readLockMemory(last.details) : null;
  const plan = unlockPlan(current, memory);
  const reason = auditReason(actor, 'unlock');
  await askDiscord(
    () =>
      plan.remove
        ? channel.permissionOverwrites.delete(guild.roles.everyone, reason)
        : channel.permissionOverwrites.edit(guild.roles.everyone, { SendMessages: overwriteValue(plan.sendMessages) }, { reason, type: OverwriteType.Role }),
    botName,
  );
  const caseNumber = await record(services, guildId, channel, actor, 'unlock', `Unlocked #${channel.name}`, { restored: memory ?? null });
  return { message: `Unlocked #${channel.name}.`, state: stateOf(guild, channel, { locked: !plan.remove && plan.sendMessages === 'deny' }), caseNumber };
}
