import type { AllowedMentions } from './mentions';
import { randomBytes } from 'node:crypto';
import {
  ApplicationIntegrationType,
  GatewayDispatchEvents,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  MessageType,
  type APIEmbed,
  type APIInteraction,
} from 'discord-api-types/v10';
import { alreadyAcknowledged, invalidFormBody, unknownInteraction, unknownMessage, unknownWebhook } from './errors';
import { presentUserById } from './presenters';
import type { MessageRecord } from './types';
import type { World } from './world';

/** How long an interaction token stays valid (Discord: 15 minutes). */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60_000;
/** Discord's deadline for the first response; later, the token is gone (10062) and the member sees "The application did not respond". */
export const INITIAL_RESPONSE_DEADLINE_MS = 3000;

/** What started an interaction. */
export type InteractionKind = 'command' | 'component' | 'modal' | 'autocomplete';

/** The initial responses each kind of interaction accepts. */
const ALLOWED_RESPONSES: Record<InteractionKind, InteractionResponseType[]> = {
  command: [InteractionResponseType.ChannelMessageWithSource, InteractionResponseType.DeferredChannelMessageWithSource, InteractionResponseType.Modal],
  component: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.DeferredMessageUpdate,
    InteractionResponseType.UpdateMessage,
    InteractionResponseType.Modal,
  ],
  modal: [
    InteractionResponseType.ChannelMessageWithSource,
    InteractionResponseType.DeferredChannelMessageWithSource,
    InteractionResponseType.DeferredMessageUpdate,
  ],
  autocomplete: [InteractionResponseType.ApplicationCommandAutocompleteResult],
};

/** A modal the bot showed a member. */
export interface ShownModal {
  customId: string;
  title: string;
  /** The text inputs: custom id, label, whether required, length limits. */
  inputs: { customId: string; label: string; required: boolean; minLength: number; maxLength: number }[];
}

/** The bot's final answer to an interaction, as the control API reports it. */
export interface InteractionReply {
  content: string;
  embeds: APIEmbed[];
  ephemeral: boolean;
  deferred: boolean;
  messageId: string | null;
  /** Follow-ups sent before the final reply settled. */
  followUps: Array<{ messageId: string; content: string; embeds: APIEmbed[]; ephemeral: boolean }>;
  /** The component's message as the bot updated it (response type 7, or an edit after type 6). */
  updated?: { messageId: string; content: string; embeds: APIEmbed[]; components: MessageRecord['components'] };
  /** The modal the bot answered with (type 9). */
  modal?: ShownModal;
  /** The autocomplete choices (type 8). */
  choices?: { name: string; value: string | number }[];
}

/** The parts of a reply body the sandbox reads. */
export interface ReplyParts {
  content?: string;
  embeds?: APIEmbed[];
  components?: MessageRecord['components'];
  flags?: number;
  allowedMentions?: AllowedMentions;
}

/** One interaction and what the bot answered. */
export interface InteractionRecord {
  id: string;
  token: string;
  guildId: string;
  channelId: string;
  userId: string;
  commandName: string;
  kind: InteractionKind;
  /** The message a component was clicked on. */
  sourceMessage: MessageRecord | null;
  expiresAt: number;
  acknowledged: boolean;
  deferred: boolean;
  original: MessageRecord | null;
  followUps: MessageRecord[];
  settled: boolean;
  settle: (reply: InteractionReply | null) => void;
  /** The bot's final answer, or null when it did not respond within Discord's 3 seconds. */
  final: Promise<InteractionReply | null>;
}

/** Live interactions by token: initial responses (once), the @original message, follow-ups. */
export class InteractionStore {
  private readonly byToken = new Map<string, InteractionRecord>();
  private readonly sweeper: NodeJS.Timeout;

  /** Interactions post their messages into the world. */
  constructor(private readonly world: World) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** Modals shown to each member, by user id, so a submit can be checked against what was shown. */
  readonly modals = new Map<string, ShownModal>();

  /**
   * Starts an interaction: registers its token and dispatches INTERACTION_CREATE. Unanswered after
   * 3 seconds, the token is gone (a late answer is 10062) and the final answer is null.
   */
  open(
    meta: Omit<
      InteractionRecord,
      'expiresAt' | 'acknowledged' | 'deferred' | 'original' | 'followUps' | 'settled' | 'settle' | 'final' | 'kind' | 'sourceMessage'
    > &
      Partial<Pick<InteractionRecord, 'kind' | 'sourceMessage'>>,
    payload: APIInteraction,
  ): InteractionRecord {
    let settle: (reply: InteractionReply | null) => void = () => undefined;
    const final = new Promise<InteractionReply | null>((resolve) => {
      settle = resolve;
    });
    const record: InteractionRecord = {
      kind: 'command',
      sourceMessage: null,
      ...meta,
      expiresAt: Date.now() + INTERACTION_TOKEN_TTL_MS,
      acknowledged: false,
      deferred: false,
      original: null,
      followUps: [],
      settled: false,
      settle,
      final,
    };
    this.byToken.set(record.token, record);
    const deadline = setTimeout(() => {
      if (record.acknowledged) return;
      this.byToken.delete(record.token);
      record.settled = true;
      record.settle(null);
    }, INITIAL_RESPONSE_DEADLINE_MS);
    deadline.unref();
    this.world.emit(record.guildId, { t: GatewayDispatchEvents.InteractionCreate, d: payload });
    return record;
  }

  /** A fresh interaction token (long and random, like Discord's). */
  static newToken(): string {
    return `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`;
  }

  /** The interaction for a callback: 10062 if unknown or expired. */
  forCallback(interactionId: string, token: string): InteractionRecord {
    const record = this.byToken.get(token);
    if (!record || record.id !== interactionId || record.expiresAt < Date.now()) throw unknownInteraction();
    return record;
  }

  /** The interaction behind a webhook token: 10015 if unknown or expired. */
  forWebhook(applicationId: string, token: string): InteractionRecord {
    const record = this.byToken.get(token);
    if (!record || applicationId !== this.world.applicationId || record.expiresAt < Date.now()) throw unknownWebhook();
    return record;
  }

  /**
   * Handles the initial response; a second one is 40060, a type the interaction does not take
   * (an update on a slash command, a message on autocomplete) is 50035.
   */
  respond(record: InteractionRecord, type: InteractionResponseType, parts: ReplyParts, data: Record<string, unknown> = {}): MessageRecord | null {
    if (record.acknowledged) throw alreadyAcknowledged();
    if (!ALLOWED_RESPONSES[record.kind].includes(type)) {
      throw invalidFormBody({
        type: { code: 'INTERACTION_RESPONSE_TYPE_INVALID', message: `Interaction response type ${type} is not valid for this interaction.` },
      });
    }
    record.acknowledged = true;
    const ephemeral = ((parts.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
    if (type === InteractionResponseType.UpdateMessage && record.sourceMessage) {
      this.world.messages.edit(record.sourceMessage, parts);
      this.finish(record, { updated: this.updatedOf(record.sourceMessage) });
      return null;
    }
    if (type === InteractionResponseType.DeferredMessageUpdate) {
      record.deferred = true;
      return null;
    }
    if (type === InteractionResponseType.ApplicationCommandAutocompleteResult) {
      const choices = Array.isArray(data.choices) ? (data.choices as { name: string; value: string | number }[]).slice(0, 25) : [];
      this.finish(record, { choices: choices.map(({ name, value }) => ({ name, value })) });
      return null;
    }
    if (type === InteractionResponseType.Modal) {
      const modal = shownModal(data);
      this.modals.set(record.userId, modal);
      this.finish(record, { modal });
      return null;
    }
    if (type === InteractionResponseType.ChannelMessageWithSource) {
      record.original = this.post(record, parts, ephemeral, false);
      this.finish(record);
      return record.original;
    }
    if (type === InteractionResponseType.DeferredChannelMessageWithSource) {
      record.deferred = true;
      record.original = this.post(record, {}, ephemeral, true);
      return record.original;
    }
    // Component updates and modals end the exchange without a message of their own.
    this.finish(record);
    return null;
  }

  /** The @original message (10008 before any response). */
  original(record: InteractionRecord): MessageRecord {
    // A component's interaction answered with an update: @original is the message the component is on.
    const original = record.original ?? record.sourceMessage;
    if (!original) throw unknownMessage();
    return original;
  }

  /** Edits a message of the interaction; editing a deferred @original resolves the final reply. */
  edit(record: InteractionRecord, message: MessageRecord, parts: ReplyParts): void {
    const loading = (message.flags & MessageFlags.Loading) !== 0;
    this.world.messages.edit(message, { ...parts, flags: message.flags & ~MessageFlags.Loading });
    if (message === record.sourceMessage && !record.original) this.finish(record, { updated: this.updatedOf(message) });
    else if (loading || message === record.original) this.finish(record);
  }

  /** A follow-up message (needs an initial response first). */
  followUp(record: InteractionRecord, parts: ReplyParts): MessageRecord {
    if (!record.acknowledged) throw unknownWebhook();
    const message = this.post(record, parts, ((parts.flags ?? 0) & MessageFlags.Ephemeral) !== 0, false);
    record.followUps.push(message);
    return message;
  }

  /** A message of this interaction by id (`@original` or a follow-up). */
  message(record: InteractionRecord, messageId: string): MessageRecord {
    if (messageId === '@original') return this.original(record);
    const found = record.original?.id === messageId ? record.original : record.followUps.find((m) => m.id === messageId);
    if (!found) throw unknownMessage();
    return found;
  }

  /** Stops the sweeper and forgets every interaction. */
  close(): void {
    clearInterval(this.sweeper);
    this.byToken.clear();
  }

  private post(record: InteractionRecord, parts: ReplyParts, ephemeral: boolean, loading: boolean): MessageRecord {
    const flags = (ephemeral ? MessageFlags.Ephemeral : 0) | (loading ? MessageFlags.Loading : 0) | ((parts.flags ?? 0) & MessageFlags.SuppressEmbeds);
    return this.world.messages.create(record.channelId, {
      authorId: this.world.botUserId,
      ...(parts.content !== undefined ? { content: parts.content } : {}),
      ...(parts.embeds ? { embeds: parts.embeds } : {}),
      ...(parts.components ? { components: parts.components } : {}),
      ...(parts.allowedMentions ? { allowedMentions: parts.allowedMentions } : {}),
      type: MessageType.ChatInputCommand,
      flags,
      webhookId: this.world.applicationId,
      applicationId: this.world.applicationId,
      interactionMetadata: {
        id: record.id,
        type: InteractionType.ApplicationCommand,
        user: presentUserById(this.world, record.userId),
        authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: record.guildId },
      },
      ephemeral,
    });
  }

  private updatedOf(message: MessageRecord): NonNullable<InteractionReply['updated']> {
    return { messageId: message.id, content: message.content, embeds: message.embeds, components: message.components };
  }

  private finish(record: InteractionRecord, extra: Pick<InteractionReply, 'updated' | 'modal' | 'choices'> = {}): void {
    if (record.settled) return;
    record.settled = true;
    const original = record.original;
    record.settle({
      ...extra,
      content: original?.content ?? '',
      embeds: original?.embeds ?? [],
      ephemeral: original ? (original.flags & MessageFlags.Ephemeral) !== 0 : false,
      deferred: record.deferred,
      messageId: original?.id ?? null,
      followUps: record.followUps.map((m) => ({
        messageId: m.id,
        content: m.content,
        embeds: m.embeds,
        ephemeral: (m.flags & MessageFlags.Ephemeral) !== 0,
      })),
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [token, record] of this.byToken) if (record.expiresAt < now) this.byToken.delete(token);
  }
}

/** The modal of a type 9 response, as the sandbox checks submits against it. */
function shownModal(data: Record<string, unknown>): ShownModal {
  const rows = Array.isArray(data.components) ? (data.components as { components?: Record<string, unknown>[]; component?: Record<string, unknown> }[]) : [];
  const inputs = rows.flatMap((row) => [...(row.components ?? []), ...(row.component ? [row.component] : [])]).filter((component) => component.type === 4);
  return {
    customId: String(data.custom_id ?? ''),
    title: String(data.title ?? ''),
    inputs: inputs.map((input) => ({
      customId: String(input.custom_id ?? ''),
      label: String(input.label ?? ''),
      required: input.required !== false,
      minLength: typeof input.min_length === 'number' ? input.min_length : 0,
      maxLength: typeof input.max_length === 'number' ? input.max_length : 4000,
    })),
  };
}
