import { PermissionFlagsBits as P, type APIEmbed } from 'discord-api-types/v10';
import { ControlError, controlGuild, parseControlBody } from './control';
import { postSchema, interactionSchema } from './control-schemas';
import { buildCommandInteraction, OptionError, type OptionValue } from './interaction-payload';
import { InteractionStore } from './interactions';
import { channelPermissions, hasPermission } from './permissions';
import { noContent, ok, type Router } from './router';
import type { SandboxServices } from './services';
import type { ChannelRecord, GuildRecord, MessageRecord } from './types';

/** How long `/_sandbox/interactions` waits for the bot's final reply. */
export const INTERACTION_REPLY_TIMEOUT_MS = 5000;

function controlChannel(services: SandboxServices, channelId: string): { guild: GuildRecord; channel: ChannelRecord } {
  const guild = services.world.guildOfChannel(channelId);
  const channel = guild?.channels.get(channelId);
  if (!guild || !channel) throw new ControlError(404, 'unknown_channel', `No channel ${channelId}.`);
  return { guild, channel };
}

function requirePermission(guild: GuildRecord, channel: ChannelRecord, userId: string, permission: bigint, what: string): void {
  if (!guild.members.has(userId)) throw new ControlError(404, 'unknown_member', `User ${userId} is not a member of ${guild.name}.`);
  if (!hasPermission(channelPermissions(guild, channel, userId), permission)) {
    throw new ControlError(403, 'missing_permissions', `User ${userId} may not ${what} in #${channel.name}.`);
  }
  const until = guild.members.get(userId)?.communicationDisabledUntil;
  if (until && Date.parse(until) > Date.now()) throw new ControlError(403, 'timed_out', `User ${userId} is timed out until ${until}.`);
}

/** A message as the control API lists it. */
export function presentControlMessage(services: SandboxServices, message: MessageRecord) {
  return {
    id: message.id,
    authorId: message.authorId,
    bot: message.authorId === services.world.botUserId,
    content: message.content,
    embeds: message.embeds as APIEmbed[],
    timestamp: message.timestamp,
    editedTimestamp: message.editedTimestamp,
    reactions: [...message.reactions.values()].map((r) => ({ emoji: r.emoji.id ? `${r.emoji.name}:${r.emoji.id}` : r.emoji.name, userIds: [...r.userIds] })),
  };
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
    requirePermission(guild, channel, input.authorId, P.ViewChannel | P.SendMessages, 'send messages');
    const message = world.messages.create(channel.id, { authorId: input.authorId, content: input.content });
    return ok(presentControlMessage(services, message), 201);
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
    requirePermission(guild, channel, params.userId ?? '', P.AddReactions | P.ReadMessageHistory, 'react');
    world.messages.addReaction(message, params.emoji ?? '', params.userId ?? '');
    return noContent();
  });
  router.add('DELETE', reactionPath, 'none', ({ params }) => {
    world.messages.removeReaction(reactionTarget(params).message, params.emoji ?? '', params.userId ?? '');
    return noContent();
  });

  router.add('POST', '/interactions', 'none', async ({ body }) => {
    const input = parseControlBody(interactionSchema, body);
    const guild = controlGuild(services, input.guildId);
    const { channel } = controlChannel(services, input.channelId);
    if (channel.guildId !== guild.id) throw new ControlError(400, 'invalid_body', 'The channel is not in that guild.', { channelId: 'Not in the guild.' });
    if (!guild.members.has(world.botUserId)) throw new ControlError(404, 'bot_not_in_guild', 'The bot is not in that guild.');
    requirePermission(guild, channel, input.userId, P.ViewChannel | P.UseApplicationCommands, 'use application commands');
    const [commandName = '', ...path] = input.name.trim().split(/\s+/);
    const command = world.commands.findByName(guild.id, commandName);
    if (!command) throw new ControlError(404, 'unknown_command', `No command "${commandName}" is registered for this guild.`);
    const required = command.default_member_permissions ? BigInt(command.default_member_permissions) : 0n;
    if (!hasPermission(channelPermissions(guild, channel, input.userId), required)) {
      throw new ControlError(403, 'missing_permissions', `User ${input.userId} lacks the permissions /${commandName} requires.`);
    }
    const values: Record<string, OptionValue> = Array.isArray(input.options)
      ? Object.fromEntries(input.options.map((o) => [o.name, o.value]))
      : (input.options ?? {});
    const id = world.snowflakes.next();
    const token = InteractionStore.newToken();
    let payload;
    try {
      payload = buildCommandInteraction(world, { id, token, guild, channel, userId: input.userId, command, path, values });
    } catch (error) {
      if (error instanceof OptionError) throw new ControlError(400, 'invalid_option', error.message, { [`options.${error.field}`]: error.message });
      throw error;
    }
    const record = services.interactions.open({ id, token, guildId: guild.id, channelId: channel.id, userId: input.userId, commandName }, payload);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), INTERACTION_REPLY_TIMEOUT_MS);
    });
    const reply = await Promise.race([record.final, timeout]);
    clearTimeout(timer);
    if (!reply) throw new ControlError(504, 'no_reply', `The bot did not reply to /${input.name} within ${INTERACTION_REPLY_TIMEOUT_MS / 1000} s.`);
    return ok({ interactionId: id, ...reply });
  });
}
