import { ChannelType, MessageFlags, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { emptyMessage, invalidChannelType, invalidFormBody, unknownChannel, unknownMessage, unknownWebhook } from '../errors';
import { noContent, ok, type RouteRequest, type RouteResponse, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { ChannelRecord, MessageRecord } from '../types';
import { avatarHash, checkWebhookName, type WebhookRecord } from '../webhooks';
import type { World } from '../world';
import { checkEmbedsSize, messageBodySchema, messageParts } from './channels';
import { botChannel, botGuild, requireGuildPermission } from './guards';
import { threadLocked } from './thread-access';
import { parseDiscordBody } from './validate';

const webhookFields = {
  name: z.string().min(1).max(80),
  avatar: z.string().nullish(),
};
const createWebhookSchema = z.looseObject(webhookFields);
const updateWebhookSchema = z.looseObject({ ...webhookFields, name: webhookFields.name.optional(), channel_id: z.string().nullish() });
const executeSchema = messageBodySchema.extend({ username: z.string().min(1).max(80).nullish(), avatar_url: z.string().nullish() });

/** Flags a webhook message may carry: suppress embeds, suppress notifications. */
const EXECUTE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.SuppressNotifications;

/** A channel webhooks live in (not a category or a thread: 50024) where the bot holds Manage Webhooks. */
function webhookChannel(world: World, channelId: string): ChannelRecord {
  if (world.threads.get(channelId)) throw invalidChannelType();
  const { channel } = botChannel(world, channelId, P.ManageWebhooks);
  if (channel.type === ChannelType.GuildCategory) throw invalidChannelType();
  return channel;
}

/** A webhook the bot manages: 10015 when unknown, and Manage Webhooks in its channel. */
function managedWebhook(world: World, webhookId: string): WebhookRecord {
  const webhook = world.webhooks.get(webhookId);
  if (!webhook) throw unknownWebhook();
  webhookChannel(world, webhook.channelId);
  return webhook;
}

/** A webhook by id and token (token routes): 10015 when unknown, 50027 for another webhook's token. */
function tokenWebhook(world: World, params: Record<string, string>): WebhookRecord {
  const webhook = world.webhooks.withToken(params.webhookId ?? params.applicationId ?? '', params.token ?? '');
  if (!webhook) throw unknownWebhook();
  return webhook;
}

/** A message the webhook sent, or 10008 (`thread_id` names the thread it must be in). */
function webhookMessage(world: World, webhook: WebhookRecord, messageId: string, threadId: string | null): MessageRecord {
  const message = messageId === '@original' ? undefined : world.messages.get(messageId);
  if (!message || message.webhookId !== webhook.id || (threadId && message.channelId !== threadId)) throw unknownMessage();
  return message;
}

/** Where an execute posts: the webhook's channel, or (`thread_id`) a thread of it the webhook may post in. */
function executeTarget(world: World, webhook: WebhookRecord, threadId: string | null): string {
  if (!threadId) return webhook.channelId;
  const thread = world.threads.get(threadId);
  if (!thread || thread.parentId !== webhook.channelId) throw unknownChannel();
  if (thread.locked) throw threadLocked();
  return thread.id;
}

/** Posts as the webhook (MESSAGE_CREATE): content, embeds, allowed_mentions, and the name and avatar overrides. */
function execute(world: World, webhook: WebhookRecord, { body, query }: Pick<RouteRequest, 'body' | 'query'>): RouteResponse {
  const parsed = parseDiscordBody(executeSchema, body);
  checkWebhookName('username', parsed.username);
  const parts = messageParts(parsed);
  if (!parts.content && !parts.embeds?.length && !parts.components?.length) throw emptyMessage();
  checkEmbedsSize(parts.embeds);
  const message = world.messages.create(executeTarget(world, webhook, query.get('thread_id')), {
    authorId: webhook.id,
    ...parts,
    flags: (parsed.flags ?? 0) & EXECUTE_FLAGS,
    allowedMentions: parsed.allowed_mentions,
    webhookId: webhook.id,
    webhookAuthor: { username: parsed.username ?? webhook.name, avatar: parsed.avatar_url ? avatarHash(parsed.avatar_url) : webhook.avatar },
  });
  return query.get('wait') === 'true' ? ok(world.messages.present(message)) : noContent();
}

/**
 * The channel-webhook side of the routes webhooks share with interaction follow-ups (rest/interactions.ts):
 * `POST /webhooks/:id/:token` executes, `GET|PATCH|DELETE /webhooks/:id/:token/messages/:messageId`
 * read, edit and delete the webhook's own messages (`@original` is an interaction's only: 10008). Answers
 * when `:applicationId` is a channel webhook's id (50027 for another token), and null otherwise: then the
 * id is the application's and the token an interaction's.
 */
export function answerChannelWebhook(
  services: SandboxServices,
  method: string,
  request: Pick<RouteRequest, 'params' | 'body' | 'query'>,
): RouteResponse | null {
  const { world } = services;
  const webhook = world.webhooks.withToken(request.params.applicationId ?? '', request.params.token ?? '');
  if (!webhook) return null;
  if (method === 'POST') return execute(world, webhook, request);
  const message = webhookMessage(world, webhook, request.params.messageId ?? '@original', request.query.get('thread_id'));
  if (method === 'GET') return ok(world.messages.present(message));
  if (method === 'DELETE') {
    world.messages.delete(message);
    return noContent();
  }
  const parts = messageParts(parseDiscordBody(messageBodySchema, request.body));
  checkEmbedsSize(parts.embeds);
  world.messages.edit(message, parts);
  return ok(world.messages.present(message));
}

/** Channel webhooks: create and list (Manage Webhooks), fetch, edit and delete by id (bot) or by token (anyone holding it). */
export function registerWebhookRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('POST', '/channels/:channelId/webhooks', 'bot', ({ params, body, reason }) => {
    const channel = webhookChannel(world, params.channelId ?? '');
    const input = parseDiscordBody(createWebhookSchema, body);
    checkWebhookName('name', input.name);
    const webhook = world.webhooks.create(
      channel,
      { name: input.name, avatar: input.avatar ? avatarHash(input.avatar) : null, creatorId: world.botUserId },
      { actorId: world.botUserId, reason },
    );
    return ok(world.webhooks.present(webhook, 'manager'));
  });

  router.add('GET', '/channels/:channelId/webhooks', 'bot', ({ params }) => {
    const channel = webhookChannel(world, params.channelId ?? '');
    return ok(world.webhooks.inChannel(channel.id).map((w) => world.webhooks.present(w, 'manager')));
  });

  router.add('GET', '/guilds/:guildId/webhooks', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageWebhooks);
    return ok(world.webhooks.inGuild(guild.id).map((w) => world.webhooks.present(w, 'manager')));
  });

  router.add('GET', '/webhooks/:webhookId', 'bot', ({ params }) => ok(world.webhooks.present(managedWebhook(world, params.webhookId ?? ''), 'manager')));

  // A move takes Manage Webhooks in both channels, which must be in the webhook's guild.
  router.add('PATCH', '/webhooks/:webhookId', 'bot', ({ params, body, reason }) => {
    const webhook = managedWebhook(world, params.webhookId ?? '');
    const input = parseDiscordBody(updateWebhookSchema, body);
    checkWebhookName('name', input.name);
    const channel = input.channel_id ? webhookChannel(world, input.channel_id) : undefined;
    if (channel && channel.guildId !== webhook.guildId) {
      throw invalidFormBody({ channel_id: { code: 'WEBHOOK_INVALID_CHANNEL', message: 'Webhooks can only be moved to channels in the same guild.' } });
    }
    world.webhooks.update(
      webhook,
      {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.avatar !== undefined ? { avatar: input.avatar ? avatarHash(input.avatar) : null } : {}),
        ...(channel ? { channel } : {}),
      },
      { actorId: world.botUserId, reason },
    );
    return ok(world.webhooks.present(webhook, 'manager'));
  });

  router.add('DELETE', '/webhooks/:webhookId', 'bot', ({ params, reason }) => {
    world.webhooks.delete(managedWebhook(world, params.webhookId ?? ''), { actorId: world.botUserId, reason });
    return noContent();
  });

  // With the token alone: no `user` in the answer, and no member to name in the audit log.
  const byToken = '/webhooks/:webhookId/:token';
  router.add('GET', byToken, 'none', ({ params }) => ok(world.webhooks.present(tokenWebhook(world, params), 'token')));

  router.add('PATCH', byToken, 'none', ({ params, body }) => {
    const webhook = tokenWebhook(world, params);
    const input = parseDiscordBody(updateWebhookSchema.omit({ channel_id: true }), body);
    checkWebhookName('name', input.name);
    world.webhooks.update(webhook, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.avatar !== undefined ? { avatar: input.avatar ? avatarHash(input.avatar) : null } : {}),
    });
    return ok(world.webhooks.present(webhook, 'token'));
  });

  router.add('DELETE', byToken, 'none', ({ params }) => {
    world.webhooks.delete(tokenWebhook(world, params));
    return noContent();
  });
}
