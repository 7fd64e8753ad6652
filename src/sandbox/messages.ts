import { GatewayDispatchEvents, MessageType, type APIEmbed, type APIMessage } from 'discord-api-types/v10';
import { resolvePings, type AllowedMentions } from './mentions';
import { presentMember, presentMessage, presentUserById } from './presenters';
import { unknownEmoji } from './errors';
import type { MessageRecord, ReactionRecord } from './types';
import type { World } from './world';

/** What a new message is made of; only `authorId` and some content are required. */
export interface NewMessageInput {
  authorId: string;
  content?: string;
  embeds?: APIEmbed[];
  components?: MessageRecord['components'];
  type?: MessageType;
  flags?: number;
  webhookId?: string | null;
  applicationId?: string | null;
  interactionMetadata?: MessageRecord['interactionMetadata'];
  /** Back-dated history (seed): no dispatch, given time. */
  timestamp?: number;
  /** Ephemeral replies: kept by id but not listed in the channel nor dispatched. */
  ephemeral?: boolean;
  /** Who may be pinged (absent: everything mentioned, within the author's permissions). */
  allowedMentions?: AllowedMentions | null;
  /** The message this replies to (checked by the caller to be in the channel). */
  replyTo?: MessageRecord | null;
}

/** An emoji as a path segment names it: unicode `👍`, or custom `name:id` (`a:name:id` when animated). */
export function parseEmoji(raw: string): ReactionRecord['emoji'] {
  const custom = /^(a:)?([\w~-]{1,32}):(\d{17,20})$/.exec(raw);
  if (custom?.[2] && custom[3]) return { id: custom[3], name: custom[2], animated: Boolean(custom[1]) };
  return { id: null, name: raw, animated: false };
}

/** One unicode emoji (with modifiers, variation selectors, ZWJ sequences, flags or keycaps), nothing else. */
const UNICODE_EMOJI = /^(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|(?:\p{Extended_Pictographic}|\p{Emoji_Presentation})(?:\p{Emoji_Modifier}|\uFE0F|\u200D(?:\p{Extended_Pictographic}|\p{Emoji_Presentation}))*)$/u;

/** True when `raw` is one unicode emoji. */
export function isUnicodeEmoji(raw: string): boolean {
  return UNICODE_EMOJI.test(raw);
}

/** Reactions of one emoji share a key: the id of a custom emoji (its name may be typed any way), the unicode emoji itself. */
function emojiKey(emoji: ReactionRecord['emoji']): string {
  return emoji.id ?? emoji.name;
}

/** Channel messages and their reactions, indexed by channel and by id. */
export class MessageStore {
  private readonly byChannel = new Map<string, Map<string, MessageRecord>>();
  private readonly byId = new Map<string, MessageRecord>();

  /** The store belongs to a world, whose events it emits. */
  constructor(private readonly world: World) {}

  /** A message by id (ephemeral ones included). */
  get(messageId: string): MessageRecord | undefined {
    return this.byId.get(messageId);
  }

  /** A channel's messages, oldest first. */
  list(channelId: string): MessageRecord[] {
    return [...(this.byChannel.get(channelId)?.values() ?? [])];
  }

  /** The message as the bot sees it over REST (a reply carries the message it answers). */
  present(message: MessageRecord): APIMessage {
    const presented = presentMessage(this.world, message, this.world.botUserId);
    if (!message.referencedMessageId) return presented;
    const referenced = this.byId.get(message.referencedMessageId);
    return { ...presented, referenced_message: referenced ? presentMessage(this.world, referenced, this.world.botUserId) : null };
  }

  /** Posts a message (MESSAGE_CREATE unless back-dated or ephemeral). */
  create(channelId: string, input: NewMessageInput): MessageRecord {
    const guild = this.world.guildOfChannel(channelId);
    if (!guild) throw new Error(`unknown channel ${channelId}`);
    const content = input.content ?? '';
    const channel = guild.channels.get(channelId);
    const at = input.timestamp ?? this.world.clock.ms();
    const message: MessageRecord = {
      id: input.timestamp ? this.world.snowflakes.at(at) : this.world.snowflakes.next(),
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
      reactions: new Map(),
      pings: channel
        ? resolvePings(guild, channel, input.authorId, content, input.allowedMentions, input.replyTo ?? null, (id) => this.world.users.has(id))
        : { userIds: [], roleIds: [], everyone: false },
      referencedMessageId: input.replyTo?.id ?? null,
      webhookId: input.webhookId ?? null,
      applicationId: input.applicationId ?? null,
      interactionMetadata: input.interactionMetadata ?? null,
    };
    this.byId.set(message.id, message);
    if (input.ephemeral) return message;
    let channelMessages = this.byChannel.get(channelId);
    if (!channelMessages) {
      channelMessages = new Map();
      this.byChannel.set(channelId, channelMessages);
    }
    channelMessages.set(message.id, message);
    if (channel) channel.lastMessageId = message.id;
    if (input.timestamp) return message;
    const member = guild.members.get(message.authorId);
    this.world.emit(guild.id, {
      t: GatewayDispatchEvents.MessageCreate,
      d: {
        ...this.present(message),
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

  /** Edits content, embeds or components (MESSAGE_UPDATE unless ephemeral). */
  edit(message: MessageRecord, patch: { content?: string; embeds?: APIEmbed[]; components?: MessageRecord['components']; flags?: number }): void {
    if (patch.content !== undefined) message.content = patch.content;
    if (patch.embeds !== undefined) message.embeds = patch.embeds;
    if (patch.components !== undefined) message.components = patch.components;
    if (patch.flags !== undefined) message.flags = patch.flags;
    message.editedTimestamp = this.world.clock.now().toISOString();
    if (!this.byChannel.get(message.channelId)?.has(message.id)) return;
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.MessageUpdate,
      d: { ...this.present(message), guild_id: message.guildId, mentions: [] },
    });
  }

  /** Deletes a message (MESSAGE_DELETE). */
  delete(message: MessageRecord): void {
    this.byId.delete(message.id);
    const listed = this.byChannel.get(message.channelId)?.delete(message.id) ?? false;
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

  /** Drops a message without a dispatch (its channel was deleted). */
  forget(message: MessageRecord): void {
    this.byId.delete(message.id);
    this.byChannel.get(message.channelId)?.delete(message.id);
  }

  /** Deletes several messages of a channel at once (one MESSAGE_DELETE_BULK). */
  deleteBulk(channelId: string, messageIds: string[]): string[] {
    const channel = this.byChannel.get(channelId);
    const deleted = messageIds.filter((id) => channel?.delete(id) && this.byId.delete(id));
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

function withoutUser<T extends { user?: unknown }>(member: T): Omit<T, 'user'> {
  const { user: _user, ...rest } = member;
  return rest;
}
