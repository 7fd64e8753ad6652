import { GatewayDispatchEvents, MessageType, type APIEmbed, type APIMessage } from 'discord-api-types/v10';
import { presentMember, presentMessage } from './presenters';
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
}

/** An emoji as a path segment names it: unicode `👍`, or custom `name:id`. */
export function parseEmoji(raw: string): ReactionRecord['emoji'] {
  const custom = /^(a:)?([\w~-]{1,32}):(\d{17,20})$/.exec(raw);
  if (custom?.[2] && custom[3]) return { id: custom[3], name: custom[2], animated: Boolean(custom[1]) };
  return { id: null, name: raw, animated: false };
}

function emojiKey(emoji: ReactionRecord['emoji']): string {
  return emoji.id ? `${emoji.name}:${emoji.id}` : emoji.name;
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

  /** The message as the bot sees it over REST. */
  present(message: MessageRecord): APIMessage {
    return presentMessage(this.world, message, this.world.botUserId);
  }

  /** Posts a message (MESSAGE_CREATE unless back-dated or ephemeral). */
  create(channelId: string, input: NewMessageInput): MessageRecord {
    const guild = this.world.guildOfChannel(channelId);
    if (!guild) throw new Error(`unknown channel ${channelId}`);
    const content = input.content ?? '';
    const at = input.timestamp ?? Date.now();
    const message: MessageRecord = {
      id: input.timestamp ? this.world.snowflakes.at(at) : this.world.snowflakes.next(),
      channelId,
      guildId: guild.id,
      authorId: input.authorId,
      content,
      embeds: input.embeds ?? [],
      components: input.components ?? [],
      type: input.type ?? MessageType.Default,
      timestamp: new Date(at).toISOString(),
      editedTimestamp: null,
      flags: input.flags ?? 0,
      reactions: new Map(),
      mentionUserIds: [...content.matchAll(/<@!?(\d{17,20})>/g)].flatMap((m) => (m[1] && this.world.users.has(m[1]) ? [m[1]] : [])),
      mentionRoleIds: [...content.matchAll(/<@&(\d{17,20})>/g)].flatMap((m) => (m[1] && guild.roles.has(m[1]) ? [m[1]] : [])),
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
    const channel = guild.channels.get(channelId);
    if (channel) channel.lastMessageId = message.id;
    if (input.timestamp) return message;
    const member = guild.members.get(message.authorId);
    this.world.emit(guild.id, {
      t: GatewayDispatchEvents.MessageCreate,
      d: {
        ...this.present(message),
        guild_id: guild.id,
        mentions: message.mentionUserIds.map((id) => {
          const mentioned = guild.members.get(id);
          const user = presentMessage(this.world, { ...message, mentionUserIds: [id] }, '').mentions[0];
          if (!user) throw new Error('mention vanished');
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
    message.editedTimestamp = new Date().toISOString();
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

  /** A user reacts (MESSAGE_REACTION_ADD); false if they had already. */
  addReaction(message: MessageRecord, rawEmoji: string, userId: string): boolean {
    const emoji = parseEmoji(rawEmoji);
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
    const emoji = parseEmoji(rawEmoji);
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
    return [...(message.reactions.get(emojiKey(parseEmoji(rawEmoji)))?.userIds ?? [])];
  }
}

function withoutUser<T extends { user?: unknown }>(member: T): Omit<T, 'user'> {
  const { user: _user, ...rest } = member;
  return rest;
}
