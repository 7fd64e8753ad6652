import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { missingPermissions } from '../errors';
import { channelPermissions, hasPermission } from '../permissions';
import { presentUserById } from '../presenters';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botChannel, channelMessage } from './guards';

/** Reactions: the bot's own (add, remove), others' (remove with Manage Messages), and who reacted. */
export function registerReactionRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;
  const base = '/channels/:channelId/messages/:messageId/reactions/:emoji';

  router.add('PUT', `${base}/@me`, 'bot', ({ params }) => {
    const { guild, channel } = botChannel(world, params.channelId ?? '', P.ReadMessageHistory);
    const message = channelMessage(world, channel.id, params.messageId ?? '');
    // As on Discord, Add Reactions is needed only to be the first with an emoji.
    if (!world.messages.hasReaction(message, params.emoji ?? '') && !hasPermission(channelPermissions(guild, channel, world.botUserId), P.AddReactions))
      throw missingPermissions();
    world.messages.addReaction(message, params.emoji ?? '', world.botUserId);
    return noContent();
  });

  router.add('DELETE', base, 'bot', ({ params }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ManageMessages | P.ReadMessageHistory);
    world.messages.clearReactions(channelMessage(world, channel.id, params.messageId ?? ''), params.emoji ?? '');
    return noContent();
  });

  router.add('DELETE', '/channels/:channelId/messages/:messageId/reactions', 'bot', ({ params }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ManageMessages | P.ReadMessageHistory);
    world.messages.clearReactions(channelMessage(world, channel.id, params.messageId ?? ''));
    return noContent();
  });

  router.add('DELETE', `${base}/@me`, 'bot', ({ params }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ReadMessageHistory);
    world.messages.removeReaction(channelMessage(world, channel.id, params.messageId ?? ''), params.emoji ?? '', world.botUserId);
    return noContent();
  });

  router.add('DELETE', `${base}/:userId`, 'bot', ({ params }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ManageMessages | P.ReadMessageHistory);
    world.messages.removeReaction(channelMessage(world, channel.id, params.messageId ?? ''), params.emoji ?? '', params.userId ?? '');
    return noContent();
  });

  router.add('GET', base, 'bot', ({ params, query }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ReadMessageHistory);
    const message = channelMessage(world, channel.id, params.messageId ?? '');
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 25) || 25));
    const after = query.get('after');
    const ids = world.messages
      .reactors(message, params.emoji ?? '')
      .filter((id) => !after || BigInt(id) > BigInt(after))
      .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
      .slice(0, limit);
    return ok(ids.map((id) => presentUserById(world, id)));
  });
}
