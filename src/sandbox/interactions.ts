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
import { alreadyAcknowledged, unknownInteraction, unknownMessage, unknownWebhook } from './errors';
import { presentUserById } from './presenters';
import type { MessageRecord } from './types';
import type { World } from './world';

/** How long an interaction token stays valid (Discord: 15 minutes). */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60_000;

/** The bot's final answer to an interaction, as the control API reports it. */
export interface InteractionReply {
  content: string;
  embeds: APIEmbed[];
  ephemeral: boolean;
  deferred: boolean;
  messageId: string | null;
  /** Follow-ups sent before the final reply settled. */
  followUps: Array<{ messageId: string; content: string; embeds: APIEmbed[]; ephemeral: boolean }>;
}

/** The parts of a reply body the sandbox reads. */
export interface ReplyParts {
  content?: string;
  embeds?: APIEmbed[];
  components?: MessageRecord['components'];
  flags?: number;
}

/** One interaction and what the bot answered. */
export interface InteractionRecord {
  id: string;
  token: string;
  guildId: string;
  channelId: string;
  userId: string;
  commandName: string;
  expiresAt: number;
  acknowledged: boolean;
  deferred: boolean;
  original: MessageRecord | null;
  followUps: MessageRecord[];
  settled: boolean;
  settle: (reply: InteractionReply) => void;
  final: Promise<InteractionReply>;
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

  /** Starts an interaction: registers its token and dispatches INTERACTION_CREATE. */
  open(meta: Omit<InteractionRecord, 'expiresAt' | 'acknowledged' | 'deferred' | 'original' | 'followUps' | 'settled' | 'settle' | 'final'>, payload: APIInteraction): InteractionRecord {
    let settle: (reply: InteractionReply) => void = () => undefined;
    const final = new Promise<InteractionReply>((resolve) => {
      settle = resolve;
    });
    const record: InteractionRecord = {
      ...meta, expiresAt: Date.now() + INTERACTION_TOKEN_TTL_MS,
      acknowledged: false, deferred: false, original: null, followUps: [], settled: false, settle, final,
    };
    this.byToken.set(record.token, record);
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

  /** Handles the initial response (types 4, 5, 6, 7, 9); a second one is 40060. */
  respond(record: InteractionRecord, type: InteractionResponseType, parts: ReplyParts): MessageRecord | null {
    if (record.acknowledged) throw alreadyAcknowledged();
    record.acknowledged = true;
    const ephemeral = ((parts.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
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
    if (!record.original) throw unknownMessage();
    return record.original;
  }

  /** Edits a message of the interaction; editing a deferred @original resolves the final reply. */
  edit(record: InteractionRecord, message: MessageRecord, parts: ReplyParts): void {
    const loading = (message.flags & MessageFlags.Loading) !== 0;
    this.world.messages.edit(message, { ...parts, flags: message.flags & ~MessageFlags.Loading });
    if (loading || message === record.original) this.finish(record);
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

  private finish(record: InteractionRecord): void {
    if (record.settled) return;
    record.settled = true;
    const original = record.original;
    record.settle({
      content: original?.content ?? '',
      embeds: original?.embeds ?? [],
      ephemeral: original ? (original.flags & MessageFlags.Ephemeral) !== 0 : false,
      deferred: record.deferred,
      messageId: original?.id ?? null,
      followUps: record.followUps.map((m) => ({
        messageId: m.id, content: m.content, embeds: m.embeds, ephemeral: (m.flags & MessageFlags.Ephemeral) !== 0,
      })),
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [token, record] of this.byToken) if (record.expiresAt < now) this.byToken.delete(token);
  }
}
