import { RESTJSONErrorCodes, type Guild, type GuildMember, type Message, type MessageReaction, type PartialMessageReaction } from 'discord.js';
import { Op } from 'sequelize';
import { Conflict, DiscordRefused, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { reactionRoleState } from './state';
import type { GuildSummary } from '../../bot/gateway';
import { askDiscord } from '../../bot/discord-errors';
import { reactorsOf } from '../../bot/reactions';
import type { ReactionRole } from '../../db/models/community';
import { emojiUrl, messageUrl } from '../../shared/discord-urls';
import {
  emojiKey,
  MAX_ROLES_PER_MESSAGE,
  parseEmoji,
  type ReactionRoleMode,
  type ReactionRoleStats,
  type RecentMessage,
  type ReactionRoleView,
} from '../../shared/reaction-roles';
import { botNameIn, channelProblem, checkRoleHandouts, problemText, type RoleRequest } from '../../core/checks';
import { saveVersioned, type EditActor } from '../../db/versioned';
import { changeRole } from '../role-grants/public';
import { setBounded } from '../../core/bounded-map';

/** The parsed body of POST /reaction-roles. */
export interface NewReactionRole {
  messageId: string;
  channelId: string;
  emoji: string;
  roleId: string;
  roleName: string | null;
  mode?: ReactionRoleMode | undefined;
}

/** Why entries stop working. */
export const INACTIVE_REASONS = {
  messageDeleted: 'The message was deleted in Discord.',
  channelDeleted: 'The channel was deleted in Discord.',
  roleDeleted: 'The role was deleted in Discord.',
} as const;

const DAY_MS = 86_400_000;

const scope = (services: Services, guildId: string) => services.store.guild(guildId).ReactionRole;

/** An entry as the dashboard lists it, with the live channel and role names. */
export function viewReactionRole(services: Services, row: ReactionRole): ReactionRoleView {
  const { gateway } = services;
  const parsed = parseEmoji(row.emoji);
  return {
    id: row.id,
    messageId: row.messageId,
    channelId: row.channelId,
    channelName: gateway.channel(row.guildId, row.channelId)?.name ?? null,
    emoji: row.emoji,
    emojiUrl: parsed?.kind === 'custom' ? emojiUrl(services.meta, parsed.id, parsed.animated) : null,
    roleId: row.roleId,
    roleName: gateway.role(row.guildId, row.roleId)?.name ?? row.roleName,
    mode: row.mode,
    isActive: row.isActive,
    inactiveReason: row.inactiveReason,
    messageUrl: messageUrl(services.meta, row.guildId, row.channelId, row.messageId),
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}

/** The last 25 messages of a channel, newest first, to pick the one to put reaction roles on. */
export async function recentMessages(services: Services, guildId: string, channelId: string): Promise<RecentMessage[]> {
  const channel = channelProblem(services, guildId, channelId, ['readHistory']);
  if (channel) throw InvalidInput.field('channelId', problemText(channel));
  const live = services.gateway.client?.guilds.cache.get(guildId)?.channels.cache.get(channelId);
  if (!live?.isTextBased()) throw InvalidInput.field('channelId', 'is not a text channel of this server');
  const messages = await askDiscord(() => live.messages.fetch({ limit: 25 }), botNameIn(services, guildId));
  return [...messages.values()].map((message) => ({
    id: message.id,
    author: message.member?.displayName ?? message.author.username,
    excerpt: (message.content || message.embeds[0]?.title || message.embeds[0]?.description || '(no text)').replace(/\s+/g, ' ').slice(0, 80),
    createdAt: message.createdAt.toISOString(),
  }));
}

/** Every entry of the guild, newest first. */
export async function listReactionRoles(services: Services, guildId: string): Promise<ReactionRoleView[]> {
  const rows = await scope(services, guildId).findAll({ order: [['id', 'DESC']] });
  return rows.map((row) => viewReactionRole(services, row));
}

/** The message of an entry, fetched from Discord; a missing channel or message is an InvalidInput on its field. */
async function fetchMessage(services: Services, guildId: string, channelId: string, messageId: string): Promise<Message> {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const channel = guild?.channels.cache.get(channelId);
  if (!guild || !channel?.isTextBased()) throw InvalidInput.field('channelId', 'is not a text channel of this server');
  const botName = botNameIn(services, guildId);
  try {
    return await askDiscord(() => channel.messages.fetch(messageId), botName);
  } catch (error) {
    if (error instanceof DiscordRefused && error.code === RESTJSONErrorCodes.UnknownMessage)
      throw InvalidInput.field('messageId', `is not a message of #${channel.name}`);
    throw error;
  }
}

/** The text discord.js reacts with: the unicode emoji, or `name:id`. */
function reactable(emoji: string): string {
  const parsed = parseEmoji(emoji);
  if (!parsed) throw InvalidInput.field('emoji', 'must be one emoji, or a custom emoji of this server as <:name:id>');
  return parsed.kind === 'unicode' ? parsed.name : `${parsed.animated ? 'a:' : ''}${parsed.name}:${parsed.id}`;
}

/**
 * Adds a reaction role: the message must exist in the channel (fetched from Discord), the emoji
 * must be unicode or a custom emoji of this guild, the role one the bot can give, at most 20 roles
 * per message and one role per emoji. The bot reacts with the emoji so members can click it. The
 * mode, when given, becomes the mode of every entry of the message.
 */
export async function addReactionRole(
  services: Services,
  guild: GuildSummary,
  input: NewReactionRole,
  request: RoleRequest & { actorId: string },
): Promise<ReactionRoleView> {
  const parsed = parseEmoji(input.emoji);
  if (!parsed) throw InvalidInput.field('emoji', 'must be one emoji, or a custom emoji of this server as <:name:id>');
  if (parsed.kind === 'custom' && !services.gateway.emojis(guild.id).some((emoji) => emoji.id === parsed.id)) {
    throw InvalidInput.field('emoji', `:${parsed.name}: is not an emoji of this server; use one of its custom emojis or a standard emoji`);
  }
  const channel = channelProblem(services, guild.id, input.channelId, ['react', 'readHistory']);
  if (channel) throw InvalidInput.field('channelId', problemText(channel));
  await checkRoleHandouts(services, guild.id, request, [{ field: 'roleId', roleId: input.roleId, what: `The reaction ${input.emoji}` }]);
  const entries = await scope(services, guild.id).findAll({ where: { messageId: input.messageId } });
  const key = emojiKey(parsed);
  if (entries.some((entry) => entry.emoji === key)) throw new Conflict(`${input.emoji} already gives a role on this message.`, 'emoji');
  if (entries.length >= MAX_ROLES_PER_MESSAGE)
    throw InvalidInput.field('messageId', `already hands out ${MAX_ROLES_PER_MESSAGE} roles, the most one message can`);
  if (entries.some((entry) => entry.channelId !== input.channelId)) throw InvalidInput.field('channelId', 'is not the channel of that message');
  const message = await fetchMessage(services, guild.id, input.channelId, input.messageId);
  const botName = botNameIn(services, guild.id);
  await askDiscord(
    () => message.react(reactable(key)),
    botName,
    (code) =>
      code === RESTJSONErrorCodes.UnknownEmoji
        ? `Discord does not know the emoji ${input.emoji}.`
        : code === RESTJSONErrorCodes.MaximumNumberOfReactionsReached
          ? 'That message has the most reactions Discord allows (20).'
          : undefined,
  );
  const mode = input.mode ?? entries[0]?.mode ?? 'normal';
  if (input.mode && entries.some((entry) => entry.mode !== input.mode))
    await scope(services, guild.id).update({ mode: input.mode }, { where: { messageId: input.messageId } });
  const row = await scope(services, guild.id).create({
    messageId: input.messageId,
    channelId: input.channelId,
    emoji: key,
    emojiId: parsed.kind === 'custom' ? parsed.id : null,
    roleId: input.roleId,
    roleName: input.roleName ?? services.gateway.role(guild.id, input.roleId)?.name ?? null,
    mode,
    isActive: true,
    inactiveReason: null,
    createdBy: request.actorId,
    createdAt: services.clock.now(),
  });
  reactionRoleState.of(services).index.add(guild.id, input.messageId);
  return viewReactionRole(services, row);
}

/** An entry of the guild, or NotFound. */
async function entryOf(services: Services, guildId: string, id: number): Promise<ReactionRole> {
  const row = await scope(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound('That reaction role does not exist in this server.');
  return row;
}

/** Switches an entry on or off, or changes the mode of its message (every entry of the message). Re-activating checks the message again. */
export async function updateReactionRole(
  services: Services,
  guild: GuildSummary,
  id: number,
  patch: { isActive?: boolean | undefined; mode?: ReactionRoleMode | undefined },
  edit: { request: RoleRequest; actor: EditActor; baseVersion?: number | undefined },
): Promise<ReactionRoleView> {
  const row = await entryOf(services, guild.id, id);
  if (patch.isActive === true && !row.isActive) {
    await fetchMessage(services, guild.id, row.channelId, row.messageId);
    // Switched back on, the entry hands its role out again: the same rule as adding it.
    await checkRoleHandouts(services, guild.id, edit.request, [{ field: 'roleId', roleId: row.roleId, what: `The reaction ${row.emoji}` }]);
  }
  const values: Record<string, unknown> = {};
  if (patch.mode) values.mode = patch.mode;
  if (patch.isActive !== undefined) values.isActive = patch.isActive;
  const save = (entry: ReactionRole, entryValues: Record<string, unknown>, baseVersion?: number) =>
    saveVersioned(services.store, {
      entity: 'reactionRole',
      row: entry,
      values: entryValues,
      baseVersion,
      actor: edit.actor,
      now: () => services.clock.now(),
      ...('isActive' in entryValues ? { alongside: { inactiveReason: null } } : {}),
    });
  const saved = await save(row, values, edit.baseVersion);
  // The mode is the message's: its other entries follow (each edit recorded on its own entry).
  if (patch.mode) {
    for (const sibling of await scope(services, guild.id).findAll({ where: { messageId: row.messageId } })) {
      if (sibling.id !== row.id) await save(sibling, { mode: patch.mode });
    }
  }
  if (saved.isActive) reactionRoleState.of(services).index.add(guild.id, saved.messageId);
  return viewReactionRole(services, saved);
}

/** Deletes an entry and takes the bot's reaction off the message (when the message is still there). */
export async function deleteReactionRole(services: Services, guild: GuildSummary, id: number): Promise<void> {
  const row = await entryOf(services, guild.id, id);
  const message = await fetchMessage(services, guild.id, row.channelId, row.messageId).catch(() => null);
  const botId = services.gateway.client?.user?.id;
  const reaction = message?.reactions.cache.find((candidate) => (row.emojiId ? candidate.emoji.id === row.emojiId : candidate.emoji.name === row.emoji));
  if (reaction && botId)
    await reaction.users.remove(botId).catch((error: unknown) => services.logger.debug({ err: error }, 'could not take the bot reaction off'));
  await row.destroy();
}

/** Deactivates the entries that match, with the reason (a message, channel or role deleted in Discord). */
export async function deactivate(
  services: Services,
  guildId: string,
  where: { messageId?: string[]; channelId?: string; roleId?: string },
  reason: string,
): Promise<number> {
  const filter = {
    isActive: true,
    ...(where.messageId ? { messageId: { [Op.in]: where.messageId } } : {}),
    ...(where.channelId ? { channelId: where.channelId } : {}),
    ...(where.roleId ? { roleId: where.roleId } : {}),
  };
  return scope(services, guildId).update({ isActive: false, inactiveReason: reason }, { where: filter });
}

/** Records one role given or taken (or the attempt that failed), for the usage stats. */
export async function recordReactionRoleEvent(
  services: Services,
  row: ReactionRole,
  userId: string,
  action: 'add' | 'remove',
  failure: string | null,
): Promise<void> {
  await services.store.guild(row.guildId).ReactionRoleEvent.create({
    reactionRoleId: row.id,
    messageId: row.messageId,
    userId,
    roleId: row.roleId,
    action,
    outcome: failure ? 'failed' : 'ok',
    reason: failure?.slice(0, 300) ?? null,
    createdAt: services.clock.now(),
  });
}

/**
 * Gives or takes an entry's role through changeRole, recording the outcome: a change made or a
 * refusal now; one Discord did not answer is recorded when its retry settles (role-grants/retry.ts).
 */
async function applyRole(services: Services, member: GuildMember, row: ReactionRole, action: 'add' | 'remove'): Promise<void> {
  const { changes, recent } = reactionRoleState.of(services);
  const key = `${member.guild.id}:${member.id}:${row.roleId}`;
  await changes.run(key, async () => {
    // The same change taken a moment ago (a live reaction and a catch-up of it): the cached member
    // may not show it yet, its update still on the way by the gateway. Not asked of Discord twice.
    const taken = recent.get(key);
    if (taken?.action === action && services.clock.ms() - taken.at < RECENT_CHANGE_MS) return;
    const change = await changeRole(services, member, { roleId: row.roleId, action, source: 'reactionRole', sourceId: row.id, reason: 'Reaction role' });
    if (change.status === 'done' && change.changed) {
      setBounded(recent, key, { action, at: services.clock.ms() }, RECENT_CHANGES_KEPT);
      await recordReactionRoleEvent(services, row, member.id, action, null);
    }
    if (change.status === 'failed') await recordReactionRoleEvent(services, row, member.id, action, change.error.message);
  });
}

/** How long a change Discord took is trusted over the cached member (its update comes by the gateway within moments). */
const RECENT_CHANGE_MS = 10_000;
/** The most recent changes remembered at once. */
const RECENT_CHANGES_KEPT = 10_000;

/** Whether a reaction is the emoji of an entry. */
export function matches(row: Pick<ReactionRole, 'emojiId' | 'emoji'>, emoji: { id: string | null; name: string | null }): boolean {
  return row.emojiId ? emoji.id === row.emojiId : emoji.name === row.emoji;
}

/**
 * A member added or removed a reaction on a message with reaction roles: the entry's role is given
 * or taken as the message's mode says. Unique swaps: the other roles of the message are taken and
 * the member's other reactions removed.
 */
export async function handleReaction(services: Services, reaction: MessageReaction | PartialMessageReaction, userId: string, added: boolean): Promise<void> {
  const guildId = reaction.message.guildId;
  if (!guildId || !reactionRoleState.of(services).index.has(guildId, reaction.message.id)) return;
  const rows = await scope(services, guildId).findAll({ where: { messageId: reaction.message.id, isActive: true } });
  const row = rows.find((candidate) => matches(candidate, reaction.emoji));
  if (!row) return;
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = await guild?.members.fetch(userId).catch(() => null);
  if (!member) return;
  switch (row.mode) {
    case 'normal':
      return applyRole(services, member, row, added ? 'add' : 'remove');
    case 'verify':
      return added ? applyRole(services, member, row, 'add') : undefined;
    case 'drop':
      return added ? applyRole(services, member, row, 'remove') : undefined;
    case 'unique': {
      if (!added) return applyRole(services, member, row, 'remove');
      for (const other of rows) if (other.id !== row.id) await applyRole(services, member, other, 'remove');
      await applyRole(services, member, row, 'add');
      const message = reaction.message.partial ? await reaction.message.fetch().catch(() => null) : reaction.message;
      for (const other of message?.reactions.cache.values() ?? []) {
        if (rows.some((entry) => entry.id !== row.id && matches(entry, other.emoji))) await other.users.remove(userId).catch(() => undefined);
      }
      return;
    }
  }
}

/**
 * At start: honours reactions added while the bot was offline. For each active message, everyone
 * who reacted gets the entry's role (drop: loses it; unique: only if they hold no other role of the
 * message). A message gone from Discord deactivates its entries.
 */
export async function catchUpReactionRoles(services: Services, guild: Guild): Promise<number> {
  const rows = await scope(services, guild.id).findAll({ where: { isActive: true } });
  const byMessage = new Map<string, ReactionRole[]>();
  for (const row of rows) byMessage.set(row.messageId, [...(byMessage.get(row.messageId) ?? []), row]);
  let changed = 0;
  for (const [messageId, entries] of byMessage) {
    reactionRoleState.of(services).index.add(guild.id, messageId);
    const first = entries[0];
    if (!first) continue;
    const channel = guild.channels.cache.get(first.channelId);
    if (!channel?.isTextBased()) {
      await deactivate(services, guild.id, { messageId: [messageId] }, INACTIVE_REASONS.channelDeleted);
      continue;
    }
    // Asked of Discord even when cached: the cached copy's reactions are those the bot saw, not those added while it was away.
    const message = await channel.messages
      .fetch({ message: messageId, force: true })
      .catch((error: unknown) => ((error as { code?: number }).code === RESTJSONErrorCodes.UnknownMessage ? 'gone' : null));
    if (message === 'gone') {
      await deactivate(services, guild.id, { messageId: [messageId] }, INACTIVE_REASONS.messageDeleted);
      continue;
    }
    if (!message) continue;
    for (const row of entries) {
      const reaction = message.reactions.cache.find((candidate) => matches(row, candidate.emoji));
      if (!reaction) continue;
      for await (const user of reactorsOf(reaction)) {
        if (user.bot) continue;
        const member = await guild.members.fetch(user.id).catch(() => null);
        if (!member) continue;
        const before = member.roles.cache.has(row.roleId);
        if (row.mode === 'drop') await applyRole(services, member, row, 'remove');
        else if (row.mode !== 'unique' || !entries.some((other) => other.id !== row.id && member.roles.cache.has(other.roleId)))
          await applyRole(services, member, row, 'add');
        if (member.roles.cache.has(row.roleId) !== before) changed += 1;
      }
    }
  }
  return changed;
}

/** The usage stats of the last 30 days, counted from what the bot did. */
export async function reactionRoleStats(services: Services, guildId: string): Promise<ReactionRoleStats> {
  const now = services.clock.ms();
  const since = new Date(now - 30 * DAY_MS);
  const events = await services.store.guild(guildId).ReactionRoleEvent.findAll({
    where: { createdAt: { [Op.gte]: since } },
    attributes: ['action', 'outcome', 'reason', 'createdAt'],
  });
  const activeEntries = await scope(services, guildId).count({ where: { isActive: true } });
  const ok = events.filter((event) => event.outcome === 'ok');
  const failures = new Map<string, number>();
  for (const event of events) if (event.outcome === 'failed') failures.set(event.reason ?? 'Unknown', (failures.get(event.reason ?? 'Unknown') ?? 0) + 1);
  const days = Array.from({ length: 30 }, (_, i) => new Date(now - (29 - i) * DAY_MS).toISOString().slice(0, 10));
  const daily = days.map((date) => ({ date, assignments: 0, removals: 0 }));
  const byDate = new Map(daily.map((day) => [day.date, day]));
  for (const event of ok) {
    const day = byDate.get(event.createdAt.toISOString().slice(0, 10));
    if (day) day[event.action === 'add' ? 'assignments' : 'removals'] += 1;
  }
  return {
    assignments: ok.filter((event) => event.action === 'add').length,
    removals: ok.filter((event) => event.action === 'remove').length,
    activeEntries,
    successRate: events.length === 0 ? null : Math.round((ok.length / events.length) * 1000) / 10,
    failures: [...failures].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    daily,
  };
}
