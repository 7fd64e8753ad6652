import { ChannelType, MessageType, type ChannelFlags, type MessageFlags, type APIDMChannel, type APIEmbed, type APIMessage } from 'discord-api-types/v10';
import { DiscordApiError } from './errors';
import { presentUserById } from './presenters';
import type { WorldState } from './world-state';

/** A message the bot sent in a DM. */
export interface DirectMessage {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
  embeds: APIEmbed[];
  timestamp: string;
}

/** The DM channel between the bot and one user. */
export interface DmChannel {
  id: string;
  userId: string;
  messages: DirectMessage[];
}

/** 403 50007: the user does not accept DMs from the bot (closed DMs, or no server in common). */
export const cannotMessageUser = (): DiscordApiError => new DiscordApiError(403, 50007, 'Cannot send messages to this user');

/**
 * Direct messages between the bot and users: one DM channel per user (made by POST
 * /users/@me/channels), what the bot sent there, and each user's switch for DMs from server
 * members (closed, a send answers 50007 as on Discord).
 */
export class DirectMessageStore {
  private readonly byId = new Map<string, DmChannel>();
  private readonly byUser = new Map<string, DmChannel>();
  /** Users who closed their DMs. */
  readonly closed = new Set<string>();

  /** `keptPerChannel`: messages a DM channel keeps, as many as a guild channel (messages.ts). */
  constructor(
    private readonly world: WorldState,
    private readonly keptPerChannel: number,
  ) {}

  /** The DM channel with a user, made on first use. */
  open(userId: string): DmChannel {
    let channel = this.byUser.get(userId);
    if (!channel) {
      channel = { id: this.world.snowflakes.next(), userId, messages: [] };
      this.byUser.set(userId, channel);
      this.byId.set(channel.id, channel);
    }
    return channel;
  }

  /** A DM channel by id. */
  channel(channelId: string): DmChannel | undefined {
    return this.byId.get(channelId);
  }

  /** The DM channel with a user, if one was opened. */
  ofUser(userId: string): DmChannel | undefined {
    return this.byUser.get(userId);
  }

  /** The bot sends a DM; 50007 when the user closed DMs or shares no server with the bot. */
  send(channel: DmChannel, input: { content?: string; embeds?: APIEmbed[] }): DirectMessage {
    const shares = [...this.world.guilds.values()].some((guild) => guild.members.has(channel.userId) && guild.members.has(this.world.botUserId));
    if (this.closed.has(channel.userId) || !shares) throw cannotMessageUser();
    const message: DirectMessage = {
      id: this.world.snowflakes.next(),
      channelId: channel.id,
      authorId: this.world.botUserId,
      content: input.content ?? '',
      embeds: input.embeds ?? [],
      timestamp: this.world.clock.now().toISOString(),
    };
    channel.messages.push(message);
    // Bounded as a guild channel's history is (messages.ts); the bot's DMs to one user come a few a second at most.
    if (channel.messages.length > this.keptPerChannel) channel.messages.shift();
    return message;
  }

  /** The DM channel as REST shows it (Discord's PrivateChannelResponse has no name). */
  presentChannel(channel: DmChannel): Omit<APIDMChannel, 'name'> {
    const last = channel.messages.at(-1);
    return {
      id: channel.id,
      type: ChannelType.DM,
      recipients: [presentUserById(this.world, channel.userId)],
      last_message_id: last?.id ?? null,
      flags: 0 as ChannelFlags,
    };
  }

  /** A DM as REST shows it. */
  presentMessage(message: DirectMessage): APIMessage {
    return {
      id: message.id,
      channel_id: message.channelId,
      author: presentUserById(this.world, message.authorId),
      content: message.content,
      timestamp: message.timestamp,
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: message.embeds,
      pinned: false,
      type: MessageType.Default,
      flags: 0 as MessageFlags,
      components: [],
    };
  }
}
