import { AuditLogEvent, GatewayDispatchEvents, MessageType, type APIEmbed, type APIMessage, type APIThreadChannel } from 'discord-api-types/v10';
import { recordAudit, type ActionContext } from './audit-log';
import { ChannelMessages, MESSAGES_KEPT_PER_CHANNEL } from './channel-messages';
import { emojiKey, isUnicodeEmoji, parseEmoji } from './emoji-path';
import { resolvePings } from './mentions';
import type { NewMessageInput } from './message-input';
import { presentAttachment } from './attachments';
import { presentMember, presentMessage, presentUserById, withoutUser } from './presenters';
import { unknownEmoji } from './errors';
import { RecentNonces } from './message-nonces';
import type { ChannelRecord, MessageRecord, ReactionRecord } from './types';
import type { WorldState } from './world-state';

/** Discord's cap on pins per channel. */
export const MAX_PINS_PER_CHANNEL = 50;

/** Message types people and apps post; the rest are system messages (joins, boosts, pins) nobody may pin or crosspost. */
const NON_SYSTEM_TYPES: ReadonlySet<MessageType> = new Set([
  MessageType.Default,
  MessageType.Reply,
  MessageType.ChatInputCommand,
  MessageType.ContextMenuCommand,
]);

/** Whether a message is a system message (joins, boosts, pin notices). */
export function isSystemMessage(message: MessageRecord): boolean {
  return !NON_SYSTEM_TYPES.has(message.type);
}

/** What messages need from threads (threads.ts): the channel a thread's messages are read against (its parent), and a message's thread. */
export interface MessageThreads {
  parentOf(threadId: string): ChannelRecord | undefined;
  /** The thread started from the message, as a channel object. */
  presentStartedFrom(message: MessageRecord): APIThreadChannel | undefined;
}

/**
 * Channel messages and their reactions, indexed by channel and by id: the last `keptPerChannel` of
 * each channel (and of its ephemeral replies). An older one is gone from every index, so REST
 * answers 10008 Unknown Message for it, as for a message that never existed.
 */
export class MessageStore {
  private readonly byChannel = new Map<string, ChannelMessages>();
  private readonly ephemeralByChannel = new Map<string, ChannelMessages>();
  private readonly byId = new Map<string, MessageRecord>();
  /** `channelId:userId` -> when that member last posted there, kept for channels in slowmode. */
  private readonly lastPost = new Map<string, number>();
  /** Threads, once the World has them (messages in a thread ping as in its parent; a message shows its thread). */
  threads: MessageThreads | null = null;
  /** Nonces sent with recent messages (enforce_nonce). */
  private readonly nonces: RecentNonces;

  /** The store belongs to a world, whose events it emits; it keeps `keptPerChannel` messages a channel. */
  constructor(
    private readonly world: WorldState,
    /** Messages kept per channel; DM channels keep as many (dms.ts). */
    readonly keptPerChannel: number = MESSAGES_KEPT_PER_CHANNEL,
  ) {
    this.nonces = new RecentNonces(() => world.clock.ms());
  }

  /** Messages held in every index (tests: what the bound keeps). */
  get size(): number {
    return this.byId.size;
  }

  /** A message by id (ephemeral ones included). */
  get(messageId: string): MessageRecord | undefined {
    return this.byId.get(messageId);
  }

  /** A channel's kept messages, oldest first. */
  list(channelId: string): MessageRecord[] {
    return [...(this.byChannel.get(channelId)?.messages.values() ?? [])];
  }

  /** A channel's kept ephemeral replies (seen only by the member each answers), oldest first. */
  listEphemeral(channelId: string): MessageRecord[] {
    return [...(this.ephemeralByChannel.get(channelId)?.messages.values() ?? [])];
  }

  /** The message as the bot sees it over REST (a reply carries the message it answers). */
  present(message: MessageRecord): APIMessage {
    const thread = this.threads?.presentStartedFrom(message);
    const presented = { ...presentMessage(this.world, message, this.world.botUserId), ...(thread ? { thread } : {}) };
    // Discord sends referenced_message only with replies; a pin notice has just its message_reference.
    if (!message.referencedMessageId || message.type !== MessageType.Reply) return presented;
    const referenced = this.byId.get(message.referencedMessageId);
    return { ...presented, referenced_message: referenced ? presentMessage(this.world, referenced, this.world.botUserId) : null };
  }

  /** The message as its author gets it back from creating it: with the nonce it was sent with, if any. */
  presentCreated(message: MessageRecord): APIMessage {
    const presented = this.present(message);
    return message.nonce === undefined ? presented : { ...presented, nonce: message.nonce };
  }

  /**
   * The message an author already made in a channel with this nonce within the last few minutes on the
   * world's clock (enforce_nonce: Discord answers with it instead of making a second), if it still exists.
   */
  findByNonce(channelId: string, authorId: string, nonce: string | number): MessageRecord | undefined {
    const id = this.nonces.find(channelId, authorId, nonce);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** Posts a message (MESSAGE_CREATE unless back-dated or ephemeral). */
  create(channelId: string, input: NewMessageInput): MessageRecord {
    const guild = this.world.guildOfChannel(channelId);
    if (!guild) throw new Error(`unknown channel ${channelId}`);
    const content = input.content ?? '';
    const channel = guild.channels.get(channelId);
    // A thread's messages ping as in its parent, whose permissions the thread has.
    const readIn = channel ?? this.threads?.parentOf(channelId);
    const at = input.timestamp ?? this.world.clock.ms();
    const message: MessageRecord = {
      id: input.timestamp ? (input.id ?? this.world.snowflakes.at(at)) : this.world.snowflakes.next(),
      channelId,
      guildId: guild.id,
      authorId: input.authorId,
      content,
      embeds: input.embeds ?? [],
      components: input.components ?? [],
      type: input.type ?? (input.replyTo ? MessageType.Reply : MessageType.Default),
      timestamp: new Date(at).toISOString(),
      editedTimestamp: null,
      flags: input.flags ?? 0,
      pinnedAt: null,
      reactions: new Map(),
      pings: readIn
        ? resolvePings(guild, readIn, input.authorId, content, input.allowedMentions, input.replyTo ?? null, (id) => this.world.users.has(id))
        : { userIds: [], roleIds: [], everyone: false },
      referencedMessageId: input.replyTo?.id ?? input.referenceId ?? null,
      webhookId: input.webhookId ?? null,
      applicationId: input.applicationId ?? null,
      interactionMetadata: input.interactionMetadata ?? null,
      ...(input.webhookAuthor ? { webhookAuthor: input.webhookAuthor } : {}),
      ...(input.nonce !== undefined && input.nonce !== null ? { nonce: input.nonce } : {}),
      ...(input.attachments?.length ? { attachments: input.attachments.map(presentAttachment) } : {}),
    };
    this.byId.set(message.id, message);
    if (message.nonce !== undefined) this.nonces.remember(channelId, message.authorId, message.nonce, message.id);
    this.keep(input.ephemeral ? this.ephemeralByChannel : this.byChannel, message);
    if (input.ephemeral) return message;
    if (channel) channel.lastMessageId = message.id;
    if (input.timestamp) return message;
    if (channel && channel.rateLimitPerUser > 0) this.lastPost.set(`${channelId}:${message.authorId}`, at);
    const member = guild.members.get(message.authorId);
    this.world.emit(guild.id, {
      t: GatewayDispatchEvents.MessageCreate,
      d: {
        ...this.presentCreated(message),
        guild_id: guild.id,
        mentions: message.pings.userIds.map((id) => {
          const mentioned = guild.members.get(id);
          const user = presentUserById(this.world, id);
          if (!mentioned) return user;
          const { user: _user, ...partial } = presentMember(this.world, mentioned);
          return { ...user, member: partial };
        }),
        ...(member && !message.webhookId ? { member: withoutUser(presentMember(this.world, member)) } : {}),
      },
    });
    return message;
  }

  /** Files a new message in its channel's index; the oldest past the bound leave every index (reactions go with them). */
  private keep(index: Map<string, ChannelMessages>, message: MessageRecord): void {
    let channel = index.get(message.channelId);
    if (!channel) {
      channel = new ChannelMessages();
      index.set(message.channelId, channel);
    }
    this.forget(channel.add(message, this.keptPerChannel));
  }

  /** Drops messages from the id index, and their files from the AttachmentStore. */
  private forget(ids: Iterable<string>): void {
    for (const id of ids) {
      this.world.attachments.drop((this.byId.get(id)?.attachments ?? []).map((file) => file.id));
      this.byId.delete(id);
    }
  }

  /** Edits content, embeds or components (MESSAGE_UPDATE unless ephemeral). */
  edit(message: MessageRecord, patch: { content?: string; embeds?: APIEmbed[]; components?: MessageRecord['components']; flags?: number }): void {
    if (patch.content !== undefined) message.content = patch.content;
    if (patch.embeds !== undefined) message.embeds = patch.embeds;
    if (patch.components !== undefined) message.components = patch.components;
    if (patch.flags !== undefined) message.flags = patch.flags;
    message.editedTimestamp = this.world.clock.now().toISOString();
    this.announceUpdate(message);
  }

  /** MESSAGE_UPDATE for a kept, listed message (ephemeral ones are nobody's to hear about). */
  private announceUpdate(message: MessageRecord): void {
    if (!this.byChannel.get(message.channelId)?.messages.has(message.id)) return;
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.MessageUpdate,
      d: { ...this.present(message), guild_id: message.guildId, mentions: [] },
    });
  }

  /** Sets message flags without an edit (Discord's CROSSPOSTED): MESSAGE_UPDATE, `edited_timestamp` untouched. */
  setFlags(message: MessageRecord, flags: number): void {
    message.flags = flags;
    this.announceUpdate(message);
  }

  /** The channel's pinned messages still kept, the newest pin first. */
  pins(channelId: string): MessageRecord[] {
    return this.list(channelId)
      .filter((m) => m.pinnedAt !== null)
      .sort((a, b) => Date.parse(b.pinnedAt ?? '') - Date.parse(a.pinnedAt ?? '') || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  }

  /**
   * Pins (or unpins) a message as Discord does: MESSAGE_UPDATE with `pinned`, CHANNEL_PINS_UPDATE, and
   * for a pin the type 6 notice in the channel by `context.actorId`; MESSAGE_PIN/MESSAGE_UNPIN in the
   * audit log. False when it already was (or was not) pinned: nothing happens.
   */
  setPinned(message: MessageRecord, pinned: boolean, context: ActionContext = {}): boolean {
    if ((message.pinnedAt !== null) === pinned) return false;
    const channel = this.world.guildOfChannel(message.channelId)?.channels.get(message.channelId);
    message.pinnedAt = pinned ? this.world.clock.now().toISOString() : null;
    const newest = this.pins(message.channelId)[0]?.pinnedAt ?? null;
    if (channel) channel.lastPinTimestamp = newest;
    this.announceUpdate(message);
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.ChannelPinsUpdate,
      d: { guild_id: message.guildId, channel_id: message.channelId, last_pin_timestamp: newest },
    });
    if (pinned && context.actorId) {
      this.create(message.channelId, {
        authorId: context.actorId,
        type: MessageType.ChannelPinnedMessage,
        referenceId: message.id,
        allowedMentions: { parse: [] },
      });
    }
    recordAudit(this.world, message.guildId, pinned ? AuditLogEvent.MessagePin : AuditLogEvent.MessageUnpin, message.authorId, context, [], {
      channel_id: message.channelId,
      message_id: message.id,
    });
    return true;
  }

  /** Seconds `userId` still has to wait before posting in a channel in slowmode (0: may post now). */
  slowmodeWait(channelId: string, userId: string, rateLimitPerUser: number): number {
    const last = this.lastPost.get(`${channelId}:${userId}`);
    if (rateLimitPerUser <= 0 || last === undefined) return 0;
    return Math.max(0, (last + rateLimitPerUser * 1000 - this.world.clock.ms()) / 1000);
  }

  /** Deletes a message (MESSAGE_DELETE). */
  delete(message: MessageRecord): void {
    this.forget([message.id]);
    this.ephemeralByChannel.get(message.channelId)?.messages.delete(message.id);
    const listed = this.byChannel.get(message.channelId)?.messages.delete(message.id) ?? false;
    if (!listed) return;
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.MessageDelete,
      d: { id: message.id, channel_id: message.channelId, guild_id: message.guildId },
    });
  }

  /**
   * The emoji a reaction names, as Discord knows it: a custom emoji of a guild the bot is in (its
   * stored name and animation), or one unicode emoji. Anything else is 10014 Unknown Emoji.
   */
  resolveEmoji(raw: string): ReactionRecord['emoji'] {
    const parsed = parseEmoji(raw);
    if (parsed.id) {
      for (const guild of this.world.guilds.values()) {
        const known = guild.emojis.get(parsed.id);
        if (known) return { id: known.id, name: known.name, animated: known.animated };
      }
      throw unknownEmoji();
    }
    if (!isUnicodeEmoji(raw)) throw unknownEmoji();
    return parsed;
  }

  /** Whether the message already has reactions with this emoji (then adding one needs no Add Reactions). */
  hasReaction(message: MessageRecord, raw: string): boolean {
    return (message.reactions.get(emojiKey(this.resolveEmoji(raw)))?.userIds.size ?? 0) > 0;
  }

  /** Drops every message of a channel, ephemeral ones too, without a dispatch (the channel was deleted). */
  forgetChannel(channelId: string): void {
    for (const index of [this.byChannel, this.ephemeralByChannel]) {
      this.forget(index.get(channelId)?.messages.keys() ?? []);
      index.delete(channelId);
    }
  }

  /** Deletes several messages of a channel at once (one MESSAGE_DELETE_BULK). */
  deleteBulk(channelId: string, messageIds: string[]): string[] {
    const channel = this.byChannel.get(channelId)?.messages;
    const deleted = messageIds.filter((id) => channel?.delete(id) && this.byId.has(id));
    this.forget(deleted);
    const guildId = this.world.guildOfChannel(channelId)?.id;
    if (deleted.length > 0 && guildId) {
      this.world.emit(guildId, { t: GatewayDispatchEvents.MessageDeleteBulk, d: { ids: deleted, channel_id: channelId, guild_id: guildId } });
    }
    return deleted;
  }

  /** A user reacts (MESSAGE_REACTION_ADD); false if they had already. */
  addReaction(message: MessageRecord, rawEmoji: string, userId: string): boolean {
    const emoji = this.resolveEmoji(rawEmoji);
    const key = emojiKey(emoji);
    let reaction = message.reactions.get(key);
    if (!reaction) {
      reaction = { emoji, userIds: new Set() };
      message.reactions.set(key, reaction);
    }
    if (reaction.userIds.has(userId)) return false;
    reaction.userIds.add(userId);
    const member = this.world.guilds.get(message.guildId)?.members.get(userId);
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.MessageReactionAdd,
      d: {
        user_id: userId,
        channel_id: message.channelId,
        message_id: message.id,
        guild_id: message.guildId,
        message_author_id: message.authorId,
        emoji: { id: emoji.id, name: emoji.name, ...(emoji.animated ? { animated: true } : {}) },
        burst: false,
        burst_colors: [],
        type: 0,
        ...(member ? { member: presentMember(this.world, member) } : {}),
      },
    });
    return true;
  }

  /** A user's reaction goes (MESSAGE_REACTION_REMOVE); false if there was none. */
  removeReaction(message: MessageRecord, rawEmoji: string, userId: string): boolean {
    const emoji = this.resolveEmoji(rawEmoji);
    const reaction = message.reactions.get(emojiKey(emoji));
    if (!reaction?.userIds.delete(userId)) return false;
    if (reaction.userIds.size === 0) message.reactions.delete(emojiKey(emoji));
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.MessageReactionRemove,
      d: {
        user_id: userId,
        channel_id: message.channelId,
        message_id: message.id,
        guild_id: message.guildId,
        emoji: { id: emoji.id, name: emoji.name },
        burst: false,
        type: 0,
      },
    });
    return true;
  }

  /** The users who reacted with an emoji, in reaction order. */
  reactors(message: MessageRecord, rawEmoji: string): string[] {
    return [...(message.reactions.get(emojiKey(this.resolveEmoji(rawEmoji)))?.userIds ?? [])];
  }

  /** Removes every reaction of one emoji (MESSAGE_REACTION_REMOVE_EMOJI), or all of them (MESSAGE_REACTION_REMOVE_ALL). */
  clearReactions(message: MessageRecord, rawEmoji?: string): void {
    const base = { channel_id: message.channelId, message_id: message.id, guild_id: message.guildId };
    if (rawEmoji === undefined) {
      message.reactions.clear();
      this.world.emit(message.guildId, { t: GatewayDispatchEvents.MessageReactionRemoveAll, d: base });
      return;
    }
    const emoji = this.resolveEmoji(rawEmoji);
    if (!message.reactions.delete(emojiKey(emoji))) return;
    this.world.emit(message.guildId, { t: GatewayDispatchEvents.MessageReactionRemoveEmoji, d: { ...base, emoji: { id: emoji.id, name: emoji.name } } });
  }
}
