import type {
  APIActionRowComponent,
  APIAttachment,
  APIAuditLogEntry,
  APIComponentInMessageActionRow,
  APIEmbed,
  APIMessageInteractionMetadata,
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
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
  /** The guild's "Server Booster" role, which Discord gives and takes as members boost. */
  premiumSubscriber?: true;
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
  nsfw: boolean;
  /** Slowmode: seconds a member must wait between messages (0-21600; Manage Messages or Manage Channels bypass it). */
  rateLimitPerUser: number;
  /** Voice channels: bits per second and the member cap (0 = none). */
  bitrate: number;
  userLimit: number;
  /** When the newest pin still standing was pinned. */
  lastPinTimestamp: string | null;
}

/** A guild membership. */
export interface MemberRecord {
  userId: string;
  nick: string | null;
  roleIds: string[];
  joinedAt: string;
  communicationDisabledUntil: string | null;
  /** Server mute and deafen (set by a moderator; they stay when the member leaves voice). */
  mute: boolean;
  deaf: boolean;
  /** When the member started boosting the guild (null when not boosting). */
  premiumSince: string | null;
}

/** Where a member sits in voice, and what they muted themselves. */
export interface VoiceStateRecord {
  channelId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  selfVideo: boolean;
}

/** A ban with its reason. */
export interface BanRecord {
  userId: string;
  reason: string | null;
}

/** A custom emoji of a guild. */
export interface EmojiRecord {
  id: string;
  name: string;
  animated: boolean;
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
  /** Custom emojis, by id. */
  emojis: Map<string, EmojiRecord>;
  /** The audit log, oldest first (the last 1,000 entries). */
  auditLog: APIAuditLogEntry[];
  /** userId -> where that member sits in voice. */
  voice: Map<string, VoiceStateRecord>;
  /** The voice channel idle members are moved to, and after how many seconds. */
  afkChannelId: string | null;
  afkTimeout: 60 | 300 | 900 | 1800 | 3600;
  systemChannelId: string | null;
  rulesChannelId: string | null;
  verificationLevel: GuildVerificationLevel;
  defaultMessageNotifications: GuildDefaultMessageNotifications;
  explicitContentFilter: GuildExplicitContentFilter;
  preferredLocale: Locale;
  systemChannelFlags: GuildSystemChannelFlags;
  /** Discord's incident actions (raid protection): until when invites and DMs are paused, ISO times; absent = none. */
  incidents?: { invitesDisabledUntil: string | null; dmsDisabledUntil: string | null };
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
  /** When the message was pinned (null: not pinned). */
  pinnedAt: string | null;
  /** Keyed by `name` or `name:id`. */
  reactions: Map<string, ReactionRecord>;
  /** Who the message actually pinged (allowed_mentions and permissions applied). */
  pings: { userIds: string[]; roleIds: string[]; everyone: boolean };
  /** The message this one replies to (type 19), if any. */
  referencedMessageId: string | null;
  webhookId: string | null;
  applicationId: string | null;
  interactionMetadata: APIMessageInteractionMetadata | null;
  /** A channel webhook's message: the name and avatar hash it shows (the webhook's, or the execute's overrides). */
  webhookAuthor?: { username: string; avatar: string | null };
  /** The nonce the author sent with the message, echoed in its create answer and MESSAGE_CREATE. */
  nonce?: string | number;
  /** The files a member attached, as Discord shows them (their bytes are in the World's AttachmentStore). */
  attachments?: APIAttachment[];
}

// --- What the World is asked to change ----------------------------------------------------------

/** Ids of the demo world that tests and the dashboard's demo login use. */
export interface DemoIds {
  guildId: string;
  secondGuildId: string;
  thirdGuildId: string;
  ownerUserId: string;
  adminUserId: string;
  plainMemberId: string;
  otherAdminUserId: string;
  channels: { welcome: string; rules: string; general: string; announcements: string; modLog: string; voice: string; afk: string; staffVoice: string };
  roles: { admin: string; moderator: string; member: string; verified: string; bot: string; aboveBot: string };
}

/** Input for a member joining (a new user is created unless `id` names an existing one). */
export interface NewMemberInput {
  id?: string;
  username: string;
  globalName?: string | null;
  discriminator?: string;
  avatar?: string | null;
  roleIds?: string[];
  joinedAt?: string;
}

/** A change to a member's voice state (see World.updateVoiceState). */
export interface VoicePatch {
  channelId?: string | null;
  selfMute?: boolean;
  selfDeaf?: boolean;
  selfVideo?: boolean;
  mute?: boolean;
  deaf?: boolean;
}

/** A member change; absent fields stay as they are. */
export interface MemberPatch {
  nick?: string | null;
  roleIds?: string[];
  communicationDisabledUntil?: string | null;
}
