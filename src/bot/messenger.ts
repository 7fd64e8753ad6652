import { RESTJSONErrorCodes, type APIEmbed, type Client, type MessageCreateOptions } from 'discord.js';
import type { Logger } from '../logger';
import type { GuildSettings } from '../shared/settings';
import { DiscordRefused } from '../core/errors';
import { askDiscord } from './discord-errors';

/** A message the bot posts: text, embeds, buttons, and exactly whom it may ping. */
export interface OutgoingMessage {
  content?: string;
  embeds?: APIEmbed[];
  components?: MessageCreateOptions['components'];
  /** Members this message may ping; nobody else is, whatever the text says. */
  mentionUserIds?: string[];
  /** Roles this message may ping. */
  mentionRoleIds?: string[];
  /** Files to attach (the welcome card). */
  files?: { name: string; data: Buffer }[];
}

/** The payload discord.js sends: content, embeds with the guild's footer, and allowed mentions. */
export type PreparedMessage = Pick<MessageCreateOptions, 'content' | 'embeds' | 'components' | 'allowedMentions' | 'files'>;

/** Adds the guild's custom footer to an embed, after the embed's own footer if it has one. */
export function withFooter(embed: APIEmbed, footer: string | null): APIEmbed {
  if (!footer) return embed;
  const text = embed.footer?.text ? `${embed.footer.text} · ${footer}` : footer;
  return { ...embed, footer: { ...embed.footer, text: text.slice(0, 2048) } };
}

/** Turns an outgoing message into what the bot sends in a guild with these settings. */
export function prepareMessage(message: OutgoingMessage, settings: Pick<GuildSettings, 'embedFooter'> | null): PreparedMessage {
  return {
    ...(message.content !== undefined ? { content: message.content } : {}),
    ...(message.embeds ? { embeds: message.embeds.map((embed) => withFooter(embed, settings?.embedFooter ?? null)) } : {}),
    ...(message.components ? { components: message.components } : {}),
    ...(message.files?.length ? { files: message.files.map((file) => ({ attachment: file.data, name: file.name })) } : {}),
    // Nothing is parsed from the text: @everyone, @here and role or user mentions typed by anyone stay inert.
    allowedMentions: { parse: [], users: message.mentionUserIds ?? [], roles: message.mentionRoleIds ?? [] },
  };
}

/** Called when Discord refuses a post (missing access or permission), for error notifications. */
export type RefusalListener = (guildId: string, channelId: string, refusal: DiscordRefused) => void;

/**
 * Every message the bot posts in a guild goes through here: the guild's embed footer is added,
 * only the intended members and roles can be pinged, and Discord's refusals become DiscordRefused
 * with a sentence ("AwesomeBot cannot send messages in #welcome").
 */
export class Messenger {
  private refusalListener: RefusalListener | null = null;

  constructor(
    private readonly deps: {
      client: Client | null;
      settings: { get(guildId: string): Promise<GuildSettings> };
      logger: Logger;
    },
  ) {}

  /** Who hears about refused posts (the notifier, for error notifications). */
  onRefusal(listener: RefusalListener): void {
    this.refusalListener = listener;
  }

  /** The prepared payload for a message in this guild. */
  async prepare(guildId: string | null, message: OutgoingMessage): Promise<PreparedMessage> {
    return prepareMessage(message, guildId ? await this.deps.settings.get(guildId) : null);
  }

  /**
   * Posts to a channel of the guild; returns the message id and its link. Throws DiscordRefused
   * with the reason; `quiet` keeps the refusal from the refusal listener (the notifier's own posts).
   */
  async post(guildId: string, channelId: string, message: OutgoingMessage, { quiet = false }: { quiet?: boolean } = {}): Promise<{ id: string; url: string }> {
    const client = this.deps.client;
    const guild = client?.guilds.cache.get(guildId);
    const channel = guild?.channels.cache.get(channelId);
    const botName = guild?.members.me?.displayName ?? client?.user?.username ?? 'The bot';
    const refuse = (refusal: DiscordRefused): never => {
      if (!quiet) this.refusalListener?.(guildId, channelId, refusal);
      throw refusal;
    };
    if (!guild || !channel) return refuse(new DiscordRefused(10003, 'That channel no longer exists in this server.'));
    if (!channel.isSendable()) return refuse(new DiscordRefused(50008, `#${channel.name} is not a text channel.`));
    const payload = await this.prepare(guildId, message);
    try {
      const sent = await askDiscord(
        () => channel.send(payload),
        botName,
        (code) =>
          code === 50001 || code === 50013
            ? `${botName} cannot send messages in #${channel.name}. Give its role View Channel, Send Messages and Embed Links there.`
            : undefined,
      );
      return { id: sent.id, url: sent.url };
    } catch (error) {
      if (error instanceof DiscordRefused) return refuse(error);
      throw error;
    }
  }

  /**
   * Edits a message the bot posted in a channel of the guild, in place (PATCH: it keeps its id, pins
   * and reactions). Throws DiscordRefused in words when the message was deleted or the bot can no
   * longer edit it.
   */
  async edit(guildId: string, channelId: string, messageId: string, message: OutgoingMessage): Promise<void> {
    const client = this.deps.client;
    const guild = client?.guilds.cache.get(guildId);
    const channel = guild?.channels.cache.get(channelId);
    const botName = guild?.members.me?.displayName ?? client?.user?.username ?? 'The bot';
    if (!guild || !channel) throw new DiscordRefused(10003, 'Its channel no longer exists, so the message cannot be edited.');
    if (!channel.isTextBased()) throw new DiscordRefused(50008, `#${channel.name} is not a text channel.`);
    const payload = await this.prepare(guildId, message);
    await askDiscord(
      () => channel.messages.edit(messageId, payload),
      botName,
      (code) =>
        code === RESTJSONErrorCodes.UnknownMessage
          ? 'The message was deleted in Discord, so it can no longer be edited.'
          : code === RESTJSONErrorCodes.MissingAccess || code === RESTJSONErrorCodes.MissingPermissions
            ? `${botName} can no longer see #${channel.name}, so it cannot edit the message. Give its role View Channel there.`
            : code === RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser
              ? `That message was not posted by ${botName}, so it cannot edit it.`
              : undefined,
    );
  }

  /**
   * Sends a member a direct message on behalf of a guild (its footer, nobody pinged). Answers
   * 'closed' when the member does not accept DMs from server members (Discord's 50007), which is
   * their choice, not a failure; other refusals throw DiscordRefused.
   */
  async dm(guildId: string, userId: string, message: OutgoingMessage): Promise<'sent' | 'closed'> {
    const client = this.deps.client;
    if (!client) throw new DiscordRefused(0, 'The bot is not connected to Discord.');
    const payload = await this.prepare(guildId, { ...message, mentionUserIds: [], mentionRoleIds: [] });
    const botName = client.user?.username ?? 'The bot';
    try {
      await askDiscord(async () => (await client.users.fetch(userId)).send(payload), botName);
      return 'sent';
    } catch (error) {
      if (error instanceof DiscordRefused && error.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser) return 'closed';
      throw error;
    }
  }
}
