import { InteractionResponseType, type RESTPostAPIInteractionCallbackWithResponseResult } from 'discord-api-types/v10';
import { z } from 'zod';
import { emptyMessage } from '../errors';
import type { ReplyParts } from '../interactions';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { checkEmbedsSize, messageBodySchema, messageParts } from './channels';
import { parseDiscordBody } from './validate';
import { answerChannelWebhook } from './webhooks';

const callbackSchema = z.looseObject({
  type: z.union([z.literal(1), z.literal(4), z.literal(5), z.literal(6), z.literal(7), z.literal(8), z.literal(9), z.literal(10), z.literal(12)]),
  data: messageBodySchema.nullish(),
});

/** Whether a message body has something to show: content, embeds, components, attachments or a poll (Discord refuses one without: 50006). */
function hasSomethingToShow(data: Record<string, unknown> | null | undefined): boolean {
  if (!data) return false;
  const listed = (key: string) => Array.isArray(data[key]) && (data[key] as unknown[]).length > 0;
  return (
    (typeof data.content === 'string' && data.content.length > 0) || listed('embeds') || listed('components') || listed('attachments') || Boolean(data.poll)
  );
}

function replyParts(body: unknown): ReplyParts {
  const parsed = parseDiscordBody(messageBodySchema, body);
  checkEmbedsSize(messageParts(parsed).embeds);
  return {
    ...messageParts(parsed),
    ...(parsed.flags !== undefined && parsed.flags !== null ? { flags: parsed.flags } : {}),
    ...(parsed.allowed_mentions ? { allowedMentions: parsed.allowed_mentions } : {}),
  };
}

/** Where a bot gives an interaction its first response (within 3 seconds). */
export const INTERACTION_CALLBACK_ROUTE = '/interactions/:interactionId/:token/callback';

/** Interaction callbacks and the webhook routes of interaction tokens; none of them take Authorization. */
export function registerInteractionRoutes(router: Router, services: SandboxServices): void {
  const { world, interactions } = services;

  // A first response Discord refuses (its body, its type) still spends the interaction's one response.
  const spend = {
    refused: (params: Record<string, string>, error: { code: number; message: string }) =>
      interactions.refuse(params.interactionId ?? '', params.token ?? '', `${error.code} ${error.message}`),
  };
  router.add(
    'POST',
    INTERACTION_CALLBACK_ROUTE,
    'none',
    ({ params, body, query }) => {
      const record = interactions.forCallback(params.interactionId ?? '', params.token ?? '');
      const parsed = parseDiscordBody(callbackSchema, body);
      const type = parsed.type as InteractionResponseType;
      if (type === InteractionResponseType.ChannelMessageWithSource && !hasSomethingToShow(parsed.data)) throw emptyMessage();
      const message = interactions.respond(record, type, parsed.data ? replyParts(parsed.data) : {}, (parsed.data ?? {}) as Record<string, unknown>);
      if (query.get('with_response') !== 'true') return noContent();
      const response: RESTPostAPIInteractionCallbackWithResponseResult = {
        interaction: {
          id: record.id,
          type: { command: 2, component: 3, autocomplete: 4, modal: 5 }[record.kind],
          response_message_id: message?.id,
          response_message_loading: type === InteractionResponseType.DeferredChannelMessageWithSource,
          response_message_ephemeral: message ? (message.flags & 64) !== 0 : false,
        },
        // Per Discord's spec only a created message (type 4) comes back as a resource; a deferral is
        // described by response_message_loading alone.
        ...(message && type === InteractionResponseType.ChannelMessageWithSource ? { resource: { type, message: world.messages.present(message) } } : {}),
      };
      return ok(response);
    },
    spend,
  );

  // These routes are channel webhooks' too: a channel webhook's id and token are answered by rest/webhooks.ts.
  const hook = '/webhooks/:applicationId/:token';

  router.add('POST', hook, 'none', ({ params, body, query }) => {
    const channelWebhook = answerChannelWebhook(services, 'POST', { params, body, query });
    if (channelWebhook) return channelWebhook;
    const record = interactions.forWebhook(params.applicationId ?? '', params.token ?? '');
    if (!hasSomethingToShow(body as Record<string, unknown> | null)) throw emptyMessage();
    const message = interactions.followUp(record, replyParts(body));
    return query.get('wait') === 'false' ? noContent() : ok(world.messages.present(message));
  });

  for (const target of ['@original', ':messageId']) {
    const path = `${hook}/messages/${target}`;
    const pick = (params: Record<string, string>) => {
      const record = interactions.forWebhook(params.applicationId ?? '', params.token ?? '');
      return { record, message: interactions.message(record, params.messageId ?? '@original') };
    };
    router.add('GET', path, 'none', ({ params, body, query }) => {
      return answerChannelWebhook(services, 'GET', { params, body, query }) ?? ok(world.messages.present(pick(params).message));
    });
    router.add('PATCH', path, 'none', ({ params, body, query }) => {
      const channelWebhook = answerChannelWebhook(services, 'PATCH', { params, body, query });
      if (channelWebhook) return channelWebhook;
      const { record, message } = pick(params);
      interactions.edit(record, message, replyParts(body));
      return ok(world.messages.present(message));
    });
    router.add('DELETE', path, 'none', ({ params, body, query }) => {
      const channelWebhook = answerChannelWebhook(services, 'DELETE', { params, body, query });
      if (channelWebhook) return channelWebhook;
      world.messages.delete(pick(params).message);
      return noContent();
    });
  }
}
