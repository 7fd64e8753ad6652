import { PermissionFlagsBits as P, RESTJSONErrorCodes, type APIEmbed } from 'discord-api-types/v10';
import { z } from 'zod';
import { uniqueCustomIds } from '../component-rules';
import { DiscordApiError, emptyMessage, invalidFormBody, missingPermissions } from '../errors';
import { channelPermissions, hasPermission } from '../permissions';
import { presentChannel } from '../presenters';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { snowflakeTime } from '../snowflake';
import type { MessageRecord } from '../types';
import { botChannel, channelMessage } from './guards';
import { botThread } from './thread-access';
import { uploadedAttachments } from './uploads';
import { parseDiscordBody } from './validate';

/** How old a message may be for bulk delete (by its id's time): 14 days. */
export const BULK_DELETE_MAX_AGE_MS = 14 * 86_400_000;

/** Discord's message content limit. */
export const MAX_CONTENT_LENGTH = 2000;

const embedSchema = z.looseObject({
  title: z.string().max(256).optional(),
  description: z.string().max(4096).optional(),
  fields: z
    .array(z.looseObject({ name: z.string().max(256), value: z.string().max(1024) }))
    .max(25)
    .optional(),
});

/** The fields of a message body the sandbox models; others are accepted and ignored. */
export const messageBodySchema = z.looseObject({
  content: z.string().max(MAX_CONTENT_LENGTH).nullish(),
  embeds: z.array(embedSchema).max(10).nullish(),
  components: z.array(z.looseObject({})).max(5).nullish().superRefine(uniqueCustomIds),
  flags: z.number().int().nullish(),
  allowed_mentions: z
    .object({
      parse: z.array(z.enum(['users', 'roles', 'everyone'])).nullish(),
      users: z.array(z.string()).nullish(),
      roles: z.array(z.string()).nullish(),
      replied_user: z.boolean().nullish(),
    })
    .nullish(),
  message_reference: z.looseObject({ message_id: z.string().nullish(), fail_if_not_exists: z.boolean().nullish() }).nullish(),
  nonce: z.union([z.number().int(), z.string().max(25)]).nullish(),
  enforce_nonce: z.boolean().nullish(),
});

/** Discord's cap on the text of all embeds of a message together. */
export const MAX_EMBEDS_TEXT = 6000;

/** The characters of an embed that count toward the 6,000 (title, description, fields, footer, author). */
function embedText(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0)
  );
}

/** Refuses embeds whose text together passes 6,000 characters, as Discord does. */
export function checkEmbedsSize(embeds: APIEmbed[] | undefined): void {
  const total = (embeds ?? []).reduce((sum, embed) => sum + embedText(embed), 0);
  if (total > MAX_EMBEDS_TEXT) throw invalidFormBody({ embeds: { code: 'MAX_EMBED_SIZE_EXCEEDED', message: 'Embed size exceeds maximum size of 6000' } });
}

/** A parsed message body. */
export type MessageBody = z.infer<typeof messageBodySchema>;

/** Reads content, embeds and components from a message body (zod has checked the modelled limits). */
export function messageParts(body: MessageBody): { content?: string; embeds?: APIEmbed[]; components?: MessageRecord['components'] } {
  return {
    ...(body.content !== undefined && body.content !== null ? { content: body.content } : {}),
    // Discord stores every embed sent by a bot as a 'rich' embed.
    ...(body.embeds ? { embeds: body.embeds.map((e) => ({ ...e, type: 'rich' }) as APIEmbed) } : {}),
    // Components are stored and echoed unchanged; the sandbox does not model them.
    ...(body.components ? { components: body.components as unknown as MessageRecord['components'] } : {}),
  };
}

/** Channels and their messages: fetch, list, create, edit, delete. */
export function registerChannelRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/channels/:channelId', 'bot', ({ params }) => {
    const dm = world.dms.channel(params.channelId ?? '');
    if (dm) return ok(world.dms.presentChannel(dm));
    const thread = world.threads.get(params.channelId ?? '');
    if (thread) {
      botThread(world, thread);
      return ok(world.threads.present(thread));
    }
    const { channel } = botChannel(world, params.channelId ?? '');
    return ok(presentChannel(channel));
  });

  router.add('GET', '/channels/:channelId/messages', 'bot', ({ params, query }) => {
    const dm = world.dms.channel(params.channelId ?? '');
    if (dm)
      return ok(
        [...dm.messages]
          .reverse()
          .slice(0, 50)
          .map((m) => world.dms.presentMessage(m)),
      );
    const { channel } = botChannel(world, params.channelId ?? '', P.ReadMessageHistory);
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50) || 50));
    const all = world.messages.list(channel.id);
    const before = query.get('before');
    const after = query.get('after');
    const around = query.get('around');
    let picked: MessageRecord[];
    if (after) picked = all.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit);
    else if (around) {
      const index = Math.max(
        0,
        all.findIndex((m) => BigInt(m.id) >= BigInt(around)),
      );
      const start = Math.max(0, index - Math.floor(limit / 2));
      picked = all.slice(start, start + limit);
    } else {
      const older = before ? all.filter((m) => BigInt(m.id) < BigInt(before)) : all;
      picked = older.slice(-limit);
    }
    return ok(picked.reverse().map((m) => world.messages.present(m)));
  });

  router.add('GET', '/channels/:channelId/messages/:messageId', 'bot', ({ params }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ReadMessageHistory);
    return ok(world.messages.present(channelMessage(world, channel.id, params.messageId ?? '')));
  });

  router.add('POST', '/channels/:channelId/messages', 'bot', ({ params, body, files }) => {
    const dm = world.dms.channel(params.channelId ?? '');
    if (dm) {
      const parts = messageParts(parseDiscordBody(messageBodySchema, body));
      if (!parts.content && !parts.embeds?.length) throw emptyMessage();
      checkEmbedsSize(parts.embeds);
      return ok(world.dms.presentMessage(world.dms.send(dm, parts)));
    }
    const { guild, channel } = botChannel(world, params.channelId ?? '', P.SendMessages);
    const parsed = parseDiscordBody(messageBodySchema, body);
    // enforce_nonce: the same nonce again within a few minutes answers the message it made, not a second one.
    const repeated =
      parsed.enforce_nonce && parsed.nonce !== undefined && parsed.nonce !== null
        ? world.messages.findByNonce(channel.id, world.botUserId, parsed.nonce)
        : undefined;
    if (repeated) return ok(world.messages.presentCreated(repeated));
    const parts = messageParts(parsed);
    const uploads = uploadedAttachments(world, guild, channel, body, files);
    if (!parts.content && !parts.embeds?.length && !parts.components?.length && uploads.length === 0) throw emptyMessage();
    checkEmbedsSize(parts.embeds);
    const referenceId = parsed.message_reference?.message_id ?? null;
    const replyTo = referenceId ? world.messages.get(referenceId) : null;
    if (referenceId && (!replyTo || replyTo.channelId !== channel.id) && parsed.message_reference?.fail_if_not_exists !== false) {
      throw invalidFormBody({ 'message_reference.message_id': { code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' } });
    }
    const message = world.messages.create(channel.id, {
      authorId: world.botUserId,
      ...parts,
      flags: (parsed.flags ?? 0) & 4096,
      allowedMentions: parsed.allowed_mentions,
      replyTo: replyTo && replyTo.channelId === channel.id ? replyTo : null,
      nonce: parsed.nonce,
      attachments: uploads.map((file) => world.attachments.add(channel.id, file)),
    });
    return ok(world.messages.presentCreated(message));
  });

  // Discord's rules: 2-100 ids, no id twice (the spec's schema says both: 50035), none made more than
  // 14 days ago by its snowflake's time, known or not (50034). Ids of no message of the channel count
  // toward the 2-100 and are passed over.
  router.add('POST', '/channels/:channelId/messages/bulk-delete', 'bot', ({ params, body }) => {
    const { channel } = botChannel(world, params.channelId ?? '', P.ManageMessages | P.ReadMessageHistory);
    const input = parseDiscordBody(z.looseObject({ messages: z.array(z.string()).min(2).max(100) }), body);
    const twoWeeksAgo = world.clock.ms() - BULK_DELETE_MAX_AGE_MS;
    if (input.messages.some((id) => snowflakeTime(id) < twoWeeksAgo))
      throw new DiscordApiError(
        400,
        RESTJSONErrorCodes.OneOfTheMessagesProvidedWasTooOldForBulkDelete,
        'You can only bulk delete messages that are under 14 days old.',
      );
    world.messages.deleteBulk(
      channel.id,
      input.messages.filter((id) => world.messages.get(id)?.channelId === channel.id),
    );
    return noContent();
  });

  router.add('PATCH', '/channels/:channelId/messages/:messageId', 'bot', ({ params, body }) => {
    const { channel } = botChannel(world, params.channelId ?? '');
    const message = channelMessage(world, channel.id, params.messageId ?? '');
    if (message.authorId !== world.botUserId) {
      throw new DiscordApiError(403, RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser, 'Cannot edit a message authored by another user');
    }
    const parts = messageParts(parseDiscordBody(messageBodySchema, body));
    checkEmbedsSize(parts.embeds);
    world.messages.edit(message, parts);
    return ok(world.messages.present(message));
  });

  router.add('DELETE', '/channels/:channelId/messages/:messageId', 'bot', ({ params }) => {
    const { guild, channel } = botChannel(world, params.channelId ?? '');
    const message = channelMessage(world, channel.id, params.messageId ?? '');
    const mayManage = hasPermission(channelPermissions(guild, channel, world.botUserId), P.ManageMessages);
    if (message.authorId !== world.botUserId && !mayManage) throw missingPermissions();
    world.messages.delete(message);
    return noContent();
  });
}
