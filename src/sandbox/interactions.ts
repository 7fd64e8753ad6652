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
import { alreadyAcknowledged, invalidFormBody, invalidWebhookToken, unknownInteraction, unknownMessage, unknownWebhook } from './errors';
import { presentUserById } from './presenters';
import type { MessageRecord } from './types';
import type { World } from './world';

/** How long an interaction token stays valid on the sandbox clock (Discord: 15 minutes). */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60_000;
/** Discord's deadline for the first response, on the sandbox clock; later, the token is gone (10062) and the member sees "The application did not respond". */
export const INITIAL_RESPONSE_DEADLINE_MS = 3000;
/** How often (real time) unanswered interactions are checked against the sandbox clock's deadline. */
const DEADLINE_POLL_MS = 100;

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
  /** Sandbox-clock time (ms) by which the first response must come. */
  respondBy: number;
  /** Sandbox-clock time (ms) after which the token is refused. */
  expiresAt: number;
  /** True once a first response came, accepted or refused: a refused one still counts, and a retry is 40060. */
  acknowledged: boolean;
  /** Why Discord refused the first response (`code message`), when it did. */
  refusal: string | null;
  deferred: boolean;
  original: MessageRecord | null;
  followUps: MessageRecord[];
  settled: boolean;
  settle: (reply: InteractionReply | null) => void;
  /** The bot's final answer, or null when it did not respond within Discord's 3 seconds or Discord refused its first response. */
  final: Promise<InteractionReply | null>;
}

/**
 * Live interactions by token: initial responses (once), the @original message, follow-ups. Deadlines
 * and lifetimes are read on the world's clock (a test advances it); real-time timers only decide
 * when to look.
 */
export class InteractionStore {
  private readonly byToken = new Map<string, InteractionRecord>();
  /** Interactions still waiting for their first response. */
  private readonly unanswered = new Set<InteractionRecord>();
  private readonly sweeper: NodeJS.Timeout;
  private deadlines: NodeJS.Timeout | null = null;

  /** Interactions post their messages into the world. */
  constructor(private readonly world: World) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** Modals shown to each member, by user id, so a submit can be checked against what was shown. */
  readonly modals = new Map<string, ShownModal>();

  /**
   * Starts an interaction: registers its token and dispatches INTERACTION_CREATE. Unanswered once the
   * clock passes 3 seconds, the token is gone (a late answer is 10062) and the final answer is null.
   */
  open(
    meta: Omit<
      InteractionRecord,
      'respondBy' | 'expiresAt' | 'acknowledged' | 'refusal' | 'deferred' | 'original' | 'followUps' | 'settled' | 'settle' | 'final' | 'kind' | 'sourceMessage'
    > &
      Partial<Pick<InteractionRecord, 'kind' | 'sourceMessage'>>,
    payload: APIInteraction,
  ): InteractionRecord {
    let settle: (reply: InteractionReply | null) => void = () => undefined;
    const final = new Promise<InteractionReply | null>((resolve) => {
      settle = resolve;
    });
    const now = this.world.clock.ms();
    const record: InteractionRecord = {
      kind: 'command',
      sourceMessage: null,
      ...meta,
      respondBy: now + INITIAL_RESPONSE_DEADLINE_MS,
      expiresAt: now + INTERACTION_TOKEN_TTL_MS,
      acknowledged: false,
      refusal: null,
      deferred: false,
      original: null,
      followUps: [],
      settled: false,
      settle,
      final,
    };
    this.byToken.set(record.token, record);
    this.unanswered.add(record);
    this.watchDeadlines();
    this.world.emit(record.guildId, { t: GatewayDispatchEvents.InteractionCreate, d: payload });
    return record;
  }

  /** A fresh interaction token (long and random, like Discord's). */
  static newToken(): string {
    return `aW50ZXJhY3Rpb246${randomBytes(48).toString('base64url')}`;
  }

  /** The interaction for a callback: 10062 if unknown, expired, or past its first-response deadline unanswered. */
  forCallback(interactionId: string, token: string): InteractionRecord {
    const record = this.live(token);
    if (!record || record.id !== interactionId) throw unknownInteraction();
    return record;
  }

  /** The interaction behind a webhook token: 10015 for another application, 401 50027 if the token is unknown or expired. */
  forWebhook(applicationId: string, token: string): InteractionRecord {
    if (applicationId !== this.world.applicationId) throw unknownWebhook();
    const record = this.live(token);
    if (!record) throw invalidWebhookToken();
    return record;
  }

  /**
   * A first response Discord refused (4xx) still counts as the response: the interaction is
   * acknowledged, a retry gets 40060, and the member gets no answer. Nothing happens for an
   * unknown or expired token, or an interaction already answered.
   */
  refuse(interactionId: string, token: string, reason: string): void {
    const record = this.live(token);
    if (!record || record.id !== interactionId || record.acknowledged) return;
    record.acknowledged = true;
    record.refusal = reason;
    this.unanswered.delete(record);
    record.settled = true;
    record.settle(null);
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
    this.unanswered.delete(record);
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

  /** The @original message (10008 before any response, or once it was deleted). */
  original(record: InteractionRecord): MessageRecord {
    // A component's interaction answered with an update: @original is the message the component is on.
    return this.existing(record.original ?? record.sourceMessage);
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
    return this.existing(found ?? null);
  }

  /** Stops the timers and forgets every interaction. */
  close(): void {
    clearInterval(this.sweeper);
    if (this.deadlines) clearInterval(this.deadlines);
    this.deadlines = null;
    this.unanswered.clear();
    this.byToken.clear();
  }

  /** A message of an interaction that still exists (deleted, or pushed out of its channel's history: 10008). */
  private existing(message: MessageRecord | null): MessageRecord {
    if (!message || this.world.messages.get(message.id) !== message) throw unknownMessage();
    return message;
  }

  /** The interaction of a token while the clock says it is valid; one past its first-response deadline unanswered is dropped. */
  private live(token: string): InteractionRecord | null {
    const record = this.byToken.get(token);
    if (!record) return null;
    const now = this.world.clock.ms();
    if (now > record.expiresAt) return null;
    if (!record.acknowledged && now > record.respondBy) {
      this.expireUnanswered(record);
      return null;
    }
    return record;
  }

  /** The token of an interaction never answered in time is gone, and its final answer is null. */
  private expireUnanswered(record: InteractionRecord): void {
    this.unanswered.delete(record);
    this.byToken.delete(record.token);
    if (record.settled) return;
    record.settled = true;
    record.settle(null);
  }

  /** Polls unanswered interactions against the clock while there are any. */
  private watchDeadlines(): void {
    if (this.deadlines) return;
    this.deadlines = setInterval(() => {
      const now = this.world.clock.ms();
      for (const record of this.unanswered) if (now > record.respondBy) this.expireUnanswered(record);
      if (this.unanswered.size === 0 && this.deadlines) {
        clearInterval(this.deadlines);
        this.deadlines = null;
      }
    }, DEADLINE_POLL_MS);
    this.deadlines.unref();
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
    const now = this.world.clock.ms();
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
