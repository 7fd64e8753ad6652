// What bots do to messages besides posting them: the typing indicator, pins (the paginated routes
// under /messages/pins and the older /pins ones, serving the same pins) and crossposts out of
// announcement channels.
import { ChannelType, GatewayDispatchEvents, MessageFlags, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { alreadyCrossposted, invalidChannelType, maxPins, missingPermissions, systemMessage } from '../errors';
import { isSystemMessage, MAX_PINS_PER_CHANNEL } from '../messages';
import { channelPermissions, hasPermission } from '../permissions';
import { presentMember } from '../presenters';
import { noContent, ok, type RouteRequest, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botChannel, channelMessage } from './guards';

/** Typing, pins and crossposts. */
export function registerPinRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  // TYPING_START to sessions with GUILD_MESSAGE_TYPING; in a DM there is nobody in the sandbox to see it.
  router.add('POST', '/channels/:channelId/typing', 'bot', ({ params }) => {
    if (world.dms.channel(params.channelId ?? '')) return noContent();
    const { guild, channel } = botChannel(world, params.channelId ?? '', P.SendMessages);
    const member = guild.members.get(world.botUserId);
    world.emit(guild.id, {
      t: GatewayDispatchEvents.TypingStart,
      d: {
        channel_id: channel.id,
        guild_id: guild.id,
        user_id: world.botUserId,
        timestamp: Math.floor(world.clock.ms() / 1000),
        ...(member ? { member: presentMember(world, member) } : {}),
      },
    });
    return noContent();
  });

  /** The channel's pins as the bot may read them: none without Read Message History, as on Discord. */
  const readablePins = (channelId: string) => {
    const { guild, channel } = botChannel(world, channelId);
    const readable = hasPermission(channelPermissions(guild, channel, world.botUserId), P.ReadMessageHistory);
    return { channel, pins: readable ? world.messages.pins(channel.id) : [] };
  };

  router.add('GET', '/channels/:channelId/pins', 'bot', ({ params }) => ok(readablePins(params.channelId ?? '').pins.map((m) => world.messages.present(m))));

  router.add('GET', '/channels/:channelId/messages/pins', 'bot', ({ params, query }) => {
    const { pins } = readablePins(params.channelId ?? '');
    const before = query.get('before');
    const limit = Number(query.get('limit') ?? 50) || 50;
    const older = before ? pins.filter((m) => Date.parse(m.pinnedAt ?? '') < Date.parse(before)) : pins;
    const page = older.slice(0, limit);
    return ok({
      items: page.map((m) => ({ pinned_at: m.pinnedAt ?? '', message: world.messages.present(m) })),
      has_more: older.length > page.length,
    });
  });

  /**
   * Pin Messages (or Manage Messages, which Discord still honours for pins) in the channel; at most
   * 50 pins a channel; system messages cannot be pinned. Pinning a pinned message changes nothing.
   */
  const pin =
    (pinned: boolean) =>
    ({ params, reason }: RouteRequest) => {
      const { guild, channel } = botChannel(world, params.channelId ?? '');
      const permissions = channelPermissions(guild, channel, world.botUserId);
      if (!hasPermission(permissions, P.PinMessages) && !hasPermission(permissions, P.ManageMessages)) throw missingPermissions();
      const message = channelMessage(world, channel.id, params.messageId ?? '');
      if (pinned && message.pinnedAt === null) {
        if (isSystemMessage(message)) throw systemMessage();
        if (world.messages.pins(channel.id).length >= MAX_PINS_PER_CHANNEL) throw maxPins();
      }
      world.messages.setPinned(message, pinned, { actorId: world.botUserId, reason });
      return noContent();
    };
  for (const base of ['/channels/:channelId/pins', '/channels/:channelId/messages/pins']) {
    router.add('PUT', `${base}/:messageId`, 'bot', pin(true));
    router.add('DELETE', `${base}/:messageId`, 'bot', pin(false));
  }

  // Crossposting publishes a message of an announcement channel to the channels following it: the
  // bot's own needs Send Messages, another's Manage Messages; it sets the CROSSPOSTED flag once.
  router.add('POST', '/channels/:channelId/messages/:messageId/crosspost', 'bot', ({ params }) => {
    const { guild, channel } = botChannel(world, params.channelId ?? '');
    if (channel.type !== ChannelType.GuildAnnouncement) throw invalidChannelType();
    const message = channelMessage(world, channel.id, params.messageId ?? '');
    const needed = message.authorId === world.botUserId ? P.SendMessages : P.ManageMessages;
    if (!hasPermission(channelPermissions(guild, channel, world.botUserId), needed)) throw missingPermissions();
    if (isSystemMessage(message)) throw systemMessage();
    if ((message.flags & MessageFlags.Crossposted) !== 0) throw alreadyCrossposted();
    world.messages.setFlags(message, message.flags | MessageFlags.Crossposted);
    return ok(world.messages.present(message));
  });
}
