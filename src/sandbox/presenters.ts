import {
  ChannelType,
  MessageReferenceType,
  type GuildMemberFlags,
  type RoleFlags,
  type UserFlags,
  type APIChannel,
  type APIGuildMember,
  type APIMessage,
  type APIOverwrite,
  type APIReaction,
  type APIRole,
  type APIUser,
} from 'discord-api-types/v10';
import type { ChannelRecord, GuildRecord, MemberRecord, MessageRecord, RoleRecord, UserRecord } from './types';

/** What presenters need to turn a user id into a user. */
export interface UserSource {
  /** The world's time. */
  readonly clock: import('../core/clock').Clock;
  /** The user with that id, if any. */
  getUser(id: string): UserRecord | undefined;
}

/** A user as Discord's REST and gateway show it. */
export function presentUser(user: UserRecord): APIUser {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator,
    global_name: user.globalName,
    avatar: user.avatar,
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    primary_guild: null,
    ...(user.bot ? { bot: true } : {}),
  };
}

/** A user we know exists (falls back to a deleted-user stub so payloads never break). */
export function presentUserById(users: UserSource, id: string): APIUser {
  const user = users.getUser(id);
  if (user) return presentUser(user);
  return presentUser({ id, username: 'deleted_user', globalName: null, discriminator: '0', avatar: null, bot: false, email: '' });
}

/** A member payload with every nullable field present (what GUILD_MEMBER_UPDATE requires). */
export type FullMember = APIGuildMember &
  Required<Pick<APIGuildMember, 'user' | 'avatar' | 'banner' | 'nick' | 'premium_since' | 'communication_disabled_until' | 'pending'>>;

/** A guild member with its user. */
export function presentMember(users: UserSource, member: MemberRecord): FullMember {
  return {
    user: presentUserById(users, member.userId),
    nick: member.nick,
    avatar: null,
    banner: null,
    roles: [...member.roleIds],
    joined_at: member.joinedAt,
    premium_since: member.premiumSince,
    deaf: member.deaf,
    mute: member.mute,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: member.communicationDisabledUntil,
  };
}

/** A role Discord manages (a bot's own role, the booster role): nobody assigns or edits it by hand. */
export function isManagedRole(role: RoleRecord): boolean {
  return role.botId !== null || role.premiumSubscriber === true;
}

/** A role; `tags.bot_id` marks the bot's managed role. */
export function presentRole(role: RoleRecord): APIRole {
  return {
    id: role.id,
    name: role.name,
    color: role.color,
    colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
    hoist: role.hoist,
    icon: null,
    unicode_emoji: null,
    position: role.position,
    permissions: role.permissions.toString(),
    managed: isManagedRole(role),
    mentionable: role.mentionable,
    flags: 0 as RoleFlags,
    ...(role.botId ? { tags: { bot_id: role.botId } } : {}),
    ...(role.premiumSubscriber ? { tags: { premium_subscriber: null } } : {}),
  };
}

/** A guild's roles sorted by position, as Discord lists them. */
export function presentRoles(guild: GuildRecord): APIRole[] {
  return [...guild.roles.values()].sort((a, b) => a.position - b.position).map(presentRole);
}

function presentOverwrites(channel: ChannelRecord): APIOverwrite[] {
  return channel.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() }));
}

/** A guild channel of the kinds the sandbox models. */
export function presentChannel(channel: ChannelRecord): APIChannel {
  const base = {
    id: channel.id,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    permission_overwrites: presentOverwrites(channel),
    flags: 0,
    nsfw: channel.nsfw,
  };
  switch (channel.type) {
    case ChannelType.GuildCategory:
      return { ...base, type: ChannelType.GuildCategory, parent_id: null };
    case ChannelType.GuildVoice:
      return {
        ...base,
        type: ChannelType.GuildVoice,
        parent_id: channel.parentId,
        bitrate: channel.bitrate,
        user_limit: channel.userLimit,
        rtc_region: null,
        rate_limit_per_user: channel.rateLimitPerUser,
        last_message_id: null,
      };
    case ChannelType.GuildAnnouncement:
      return {
        ...base,
        type: ChannelType.GuildAnnouncement,
        parent_id: channel.parentId,
        topic: channel.topic,
        last_message_id: channel.lastMessageId,
        last_pin_timestamp: channel.lastPinTimestamp,
        rate_limit_per_user: channel.rateLimitPerUser,
        default_auto_archive_duration: 1440,
      };
    case ChannelType.GuildText:
      return {
        ...base,
        type: ChannelType.GuildText,
        parent_id: channel.parentId,
        topic: channel.topic,
        last_message_id: channel.lastMessageId,
        last_pin_timestamp: channel.lastPinTimestamp,
        rate_limit_per_user: channel.rateLimitPerUser,
        default_auto_archive_duration: 1440,
      };
  }
}

/** The author of a webhook's message: the webhook's id, with the name and avatar the message was sent under. */
function presentWebhookAuthor(webhookId: string, shown: NonNullable<MessageRecord['webhookAuthor']>): APIUser {
  return presentUser({ id: webhookId, username: shown.username, globalName: null, discriminator: '0000', avatar: shown.avatar, bot: true, email: '' });
}

/** A message; `meId` decides the `me` flag of reactions (the bot's own). */
export function presentMessage(users: UserSource, message: MessageRecord, meId: string): APIMessage {
  const reactions: APIReaction[] = [...message.reactions.values()]
    .filter((r) => r.userIds.size > 0)
    .map((r) => ({
      emoji: { id: r.emoji.id, name: r.emoji.name, ...(r.emoji.animated ? { animated: true } : {}) },
      count: r.userIds.size,
      count_details: { burst: 0, normal: r.userIds.size },
      me: r.userIds.has(meId),
      me_burst: false,
      burst_colors: [],
    }));
  return {
    id: message.id,
    channel_id: message.channelId,
    author: message.webhookAuthor ? presentWebhookAuthor(message.authorId, message.webhookAuthor) : presentUserById(users, message.authorId),
    content: message.content,
    timestamp: message.timestamp,
    edited_timestamp: message.editedTimestamp,
    tts: false,
    mention_everyone: message.pings.everyone,
    mentions: message.pings.userIds.map((id) => presentUserById(users, id)),
    mention_roles: [...message.pings.roleIds],
    attachments: message.attachments ?? [],
    embeds: message.embeds,
    pinned: message.pinnedAt !== null,
    type: message.type,
    flags: message.flags,
    components: message.components,
    ...(reactions.length > 0 ? { reactions } : {}),
    ...(message.webhookId ? { webhook_id: message.webhookId } : {}),
    ...(message.applicationId ? { application_id: message.applicationId } : {}),
    ...(message.interactionMetadata ? { interaction_metadata: message.interactionMetadata } : {}),
    ...(message.referencedMessageId
      ? {
          message_reference: {
            type: MessageReferenceType.Default,
            message_id: message.referencedMessageId,
            channel_id: message.channelId,
            guild_id: message.guildId,
          },
        }
      : {}),
  };
}

/** A member payload without its user, as MESSAGE_CREATE's `member` and resolved members carry it. */
export function withoutUser<T extends { user?: unknown }>(member: T): Omit<T, 'user'> {
  const { user: _user, ...rest } = member;
  return rest;
}
