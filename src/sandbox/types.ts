import type {
  APIActionRowComponent,
  APIComponentInMessageActionRow,
  APIEmbed,
  APIMessageInteractionMetadata,
  ChannelType,
  MessageType,
  OverwriteType,
} from 'discord-api-types/v10';

/** A user account in the sandbox (members, the owner, the bot). */
export interface UserRecord {
  id: string;
  username: string;
  globalName: string | null;
  discriminator: string;
  avatar: string | null;
  bot: boolean;
  email: string;
}

/** A guild role; `permissions` is the bit set. */
export interface RoleRecord {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
  color: number;
  hoist: boolean;
  mentionable: boolean;
  /** Set for the bot's own managed role. */
  botId: string | null;
}

/** A channel permission overwrite (modelled like Discord's, for @everyone, roles and members). */
export interface OverwriteRecord {
  id: string;
  type: OverwriteType;
  allow: bigint;
  deny: bigint;
}

/** A guild channel (text, voice or category). */
export interface ChannelRecord {
  id: string;
  guildId: string;
  name: string;
  type: ChannelType.GuildText | ChannelType.GuildVoice | ChannelType.GuildCategory | ChannelType.GuildAnnouncement;
  position: number;
  topic: string | null;
  parentId: string | null;
  overwrites: OverwriteRecord[];
  lastMessageId: string | null;
}

/** A guild membership. */
export interface MemberRecord {
  userId: string;
  nick: string | null;
  roleIds: string[];
  joinedAt: string;
  communicationDisabledUntil: string | null;
}

/** A ban with its reason. */
export interface BanRecord {
  userId: string;
  reason: string | null;
}

/** A guild and everything in it, each collection keyed by id. */
export interface GuildRecord {
  id: string;
  name: string;
  icon: string | null;
  ownerId: string;
  description: string | null;
  roles: Map<string, RoleRecord>;
  channels: Map<string, ChannelRecord>;
  members: Map<string, MemberRecord>;
  bans: Map<string, BanRecord>;
  /** userId -> voice channel id. */
  voice: Map<string, string>;
  systemChannelId: string | null;
  rulesChannelId: string | null;
}

/** One emoji's reactions on a message. */
export interface ReactionRecord {
  emoji: { id: string | null; name: string; animated: boolean };
  userIds: Set<string>;
}

/** A message in a channel. */
export interface MessageRecord {
  id: string;
  channelId: string;
  guildId: string;
  authorId: string;
  content: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
  type: MessageType;
  timestamp: string;
  editedTimestamp: string | null;
  flags: number;
  /** Keyed by `name` or `name:id`. */
  reactions: Map<string, ReactionRecord>;
  mentionUserIds: string[];
  mentionRoleIds: string[];
  webhookId: string | null;
  applicationId: string | null;
  interactionMetadata: APIMessageInteractionMetadata | null;
}
