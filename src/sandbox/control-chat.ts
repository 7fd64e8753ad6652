import { PermissionFlagsBits as P, type APIEmbed } from 'discord-api-types/v10';
import { ControlError, parseControlBody } from './control-errors';
import { bulkPostSchema, postSchema } from './control-schemas';
import { registerInteractionControls } from './control-interactions';
import { channelPermissions, hasPermission } from './permissions';
import { noContent, ok, type Router } from './router';
import type { SandboxServices } from './services';
import type { ChannelRecord, GuildRecord, MessageRecord } from './types';

/** A channel of a guild, or 404. */
export function controlChannel(services: SandboxServices, channelId: string): { guild: GuildRecord; channel: ChannelRecord } {
  const guild = services.world.guildOfChannel(channelId);
  const channel = guild?.channels.get(channelId);
  if (!guild || !channel) throw new ControlError(404, 'unknown_channel', `No channel ${channelId}.`);
  return { guild, channel };
}

/** 404 unless the user is a member, 403 without `permission` in the channel or while timed out. */
export function requirePermission(
  services: SandboxServices,
  guild: GuildRecord,
  channel: ChannelRecord,
  userId: string,
  permission: bigint,
  what: string,
): void {
  if (!guild.members.has(userId)) throw new ControlError(404, 'unknown_member', `User ${userId} is not a member of ${guild.name}.`);
  if (!hasPermission(channelPermissions(guild, channel, userId), permission)) {
    throw new ControlError(403, 'missing_permissions', `User ${userId} may not ${what} in #${channel.name}.`);
  }
  const until = guild.members.get(userId)?.communicationDisabledUntil;
  if (until && Date.parse(until) > services.world.clock.ms()) throw new ControlError(403, 'timed_out', `User ${userId} is timed out until ${until}.`);
}

/** Permissions that exempt a member from a channel's slowmode, as on Discord. */
const SLOWMODE_EXEMPT = [P.ManageMessages, P.ManageChannels, P.BypassSlowmode];

/**
 * 429 `slowmode` (Discord's 20016) while a member without Manage Messages, Manage Channels or Bypass
 * Slowmode posts again sooner than the channel's `rate_limit_per_user` allows.
 */
export function requireSlowmodeElapsed(services: SandboxServices, guild: GuildRecord, channel: ChannelRecord, userId: string): void {
  if (channel.rateLimitPerUser <= 0) return;
  const permissions = channelPermissions(guild, channel, userId);
  if (SLOWMODE_EXEMPT.some((bit) => hasPermission(permissions, bit))) return;
  const wait = services.world.messages.slowmodeWait(channel.id, userId, channel.rateLimitPerUser);
  if (wait > 0) {
    throw new ControlError(
      429,
      'slowmode',
      `20016: This action cannot be performed due to slowmode rate limit. User ${userId} may post in #${channel.name} again in ${wait.toFixed(1)} s.`,
    );
  }
}

/** A message as the control API lists it. */
export function presentControlMessage(services: SandboxServices, message: MessageRecord) {
  return {
    id: message.id,
    authorId: message.authorId,
    bot: message.authorId === services.world.botUserId,
    content: message.content,
    type: message.type,
    embeds: message.embeds as APIEmbed[],
    components: message.components,
    /** Who this message actually pinged (allowed_mentions and permissions applied). */
    pinged: { users: [...message.pings.userIds], roles: [...message.pings.roleIds], everyone: message.pings.everyone },
    replyTo: message.referencedMessageId,
    timestamp: message.timestamp,
    editedTimestamp: message.editedTimestamp,
    reactions: [...message.reactions.values()].map((r) => ({ emoji: r.emoji.id ? `${r.emoji.name}:${r.emoji.id}` : r.emoji.name, userIds: [...r.userIds] })),
    attachments: (message.attachments ?? []).map((file) => ({
      id: file.id,
      filename: file.filename,
      size: file.size,
      contentType: file.content_type ?? null,
      url: file.url,
    })),
  };
}

/** Bulk posts made between two looks at the gateway's backlog. */
const BULK_CHUNK = 250;
/** Unread gateway bytes (about 700 messages) at which bulk posting waits for the bots to read. */
const BULK_BACKLOG_BYTES = 1 << 20;
/** The longest a bulk post waits for a bot that stopped reading before it goes on regardless. */
const BULK_STALL_MS = 10_000;

/**
 * Returns once the gateway connections have taken what was sent (the backlog under
 * BULK_BACKLOG_BYTES), or after BULK_STALL_MS; at least a turn of the event loop, so sockets write.
 */
async function paced(services: SandboxServices): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const giveUp = Date.now() + BULK_STALL_MS;
  while (services.gatewayBacklog() > BULK_BACKLOG_BYTES && Date.now() < giveUp) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Control routes for what members do in channels: post, react, run slash commands. */
export function registerChatControls(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/channels/:channelId/messages', 'none', ({ params }) => {
    const { channel } = controlChannel(services, params.channelId ?? '');
    return ok(world.messages.list(channel.id).map((m) => presentControlMessage(services, m)));
  });

  router.add('POST', '/channels/:channelId/messages', 'none', ({ params, body }) => {
    const { guild, channel } = controlChannel(services, params.channelId ?? '');
    const input = parseControlBody(postSchema, body);
    requirePermission(services, guild, channel, input.authorId, P.ViewChannel | P.SendMessages, 'send messages');
    requireSlowmodeElapsed(services, guild, channel, input.authorId);
    const replyTo = input.replyTo ? world.messages.get(input.replyTo) : null;
    if (input.replyTo && (!replyTo || replyTo.channelId !== channel.id))
      throw new ControlError(404, 'unknown_message', 'The message to reply to is not in this channel.');
    // Discord refuses files without Attach Files (50013), the post with them.
    if (input.attachments?.length) requirePermission(services, guild, channel, input.authorId, P.AttachFiles, 'attach files');
    const attachments = (input.attachments ?? []).map((file) => world.attachments.add(channel.id, file));
    const message = world.messages.create(channel.id, { authorId: input.authorId, content: input.content ?? '', replyTo: replyTo ?? null, attachments });
    return ok(presentControlMessage(services, message), 201);
  });

  router.add('DELETE', '/channels/:channelId/messages/:messageId', 'none', ({ params }) => {
    const { channel } = controlChannel(services, params.channelId ?? '');
    const message = world.messages.get(params.messageId ?? '');
    if (!message || message.channelId !== channel.id) throw new ControlError(404, 'unknown_message', 'No such message in this channel.');
    world.messages.delete(message);
    return noContent();
  });

  /**
   * Posted as a stream, as Discord sends one: a chunk at a time, the next once no bot has more than
   * BULK_BACKLOG_BYTES unread on its connection. Posted in one loop, every message waited in the
   * sandbox's memory (hundreds of MB for 200,000) and reached the bot only after the last was made.
   */
  router.add('POST', '/channels/:channelId/messages/bulk', 'none', async ({ params, body }) => {
    const { guild, channel } = controlChannel(services, params.channelId ?? '');
    const input = parseControlBody(bulkPostSchema, body);
    const authors =
      input.authorIds ??
      [...guild.members.keys()].filter((id) => id !== world.botUserId && hasPermission(channelPermissions(guild, channel, id), P.ViewChannel | P.SendMessages));
    for (const id of new Set(authors)) requirePermission(services, guild, channel, id, P.ViewChannel | P.SendMessages, 'send messages');
    if (authors.length === 0) throw new ControlError(400, 'invalid_body', 'Nobody may post in this channel.', { authorIds: 'No member may post here.' });
    const template = input.content ?? 'message {n}';
    let first = '';
    let last = '';
    for (let n = 1; n <= input.count; n += 1) {
      const message = world.messages.create(channel.id, { authorId: authors[(n - 1) % authors.length] ?? '', content: template.replaceAll('{n}', String(n)) });
      first ||= message.id;
      last = message.id;
      if (n % BULK_CHUNK === 0) await paced(services);
    }
    return ok({ count: input.count, firstId: first, lastId: last }, 201);
  });

  const reactionPath = '/channels/:channelId/messages/:messageId/reactions/:emoji/:userId';
  const reactionTarget = (params: Record<string, string>) => {
    const { guild, channel } = controlChannel(services, params.channelId ?? '');
    const message = world.messages.get(params.messageId ?? '');
    if (!message || message.channelId !== channel.id) throw new ControlError(404, 'unknown_message', 'No such message in this channel.');
    return { guild, channel, message };
  };
  router.add('PUT', reactionPath, 'none', ({ params }) => {
    const { guild, channel, message } = reactionTarget(params);
    const first = !world.messages.hasReaction(message, params.emoji ?? '');
    requirePermission(
      services,
      guild,
      channel,
      params.userId ?? '',
      (first ? P.AddReactions : 0n) | P.ReadMessageHistory,
      first ? 'add new reactions' : 'react',
    );
    world.messages.addReaction(message, params.emoji ?? '', params.userId ?? '');
    return noContent();
  });
  router.add('DELETE', reactionPath, 'none', ({ params }) => {
    world.messages.removeReaction(reactionTarget(params).message, params.emoji ?? '', params.userId ?? '');
    return noContent();
  });

  registerInteractionControls(router, services, { controlChannel, requirePermission });
}
