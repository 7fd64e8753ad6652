import {
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
  type APIGuild,
  type GatewayGuildCreateDispatchData,
  type GatewayVoiceState,
  type RESTAPIPartialCurrentUserGuild,
} from 'discord-api-types/v10';
import { guildPermissions } from './permissions';
import { presentChannel, presentMember, presentRoles, type UserSource } from './presenters';
import type { GuildRecord } from './types';

/** A guild as `GET /guilds/:id` returns it. */
export function presentGuild(guild: GuildRecord): APIGuild & { home_header: null; nsfw: boolean } {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: guild.description,
    owner_id: guild.ownerId,
    region: 'us-west',
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: GuildVerificationLevel.Low,
    default_message_notifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicit_content_filter: GuildExplicitContentFilter.AllMembers,
    roles: presentRoles(guild),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: guild.systemChannelId,
    system_channel_flags: GuildSystemChannelFlags.SuppressJoinNotificationReplies,
    rules_channel_id: guild.rulesChannelId,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    premium_tier: GuildPremiumTier.None,
    premium_subscription_count: 0,
    preferred_locale: Locale.EnglishUS,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: null,
    home_header: null,
    hub_type: null,
    nsfw: false,
  };
}

/** The voice states of a guild (who sits in which voice channel). */
export function presentVoiceStates(guild: GuildRecord): GatewayVoiceState[] {
  return [...guild.voice.entries()].map(([userId, channelId]) => ({
    guild_id: guild.id,
    channel_id: channelId,
    user_id: userId,
    session_id: `voice-${userId}`,
    deaf: false,
    mute: false,
    self_deaf: false,
    self_mute: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  }));
}

/** The GUILD_CREATE payload: the guild with all its channels, roles and members (`botId` for joined_at). */
export function presentGuildCreate(users: UserSource, guild: GuildRecord, botId: string): GatewayGuildCreateDispatchData {
  return {
    ...presentGuild(guild),
    joined_at: guild.members.get(botId)?.joinedAt ?? new Date().toISOString(),
    large: guild.members.size > 250,
    unavailable: false,
    member_count: guild.members.size,
    voice_states: presentVoiceStates(guild),
    members: [...guild.members.values()].map((m) => presentMember(users, m)),
    channels: [...guild.channels.values()].map(presentChannel),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  } as GatewayGuildCreateDispatchData;
}

/** A guild as `/users/@me/guilds` lists it for `userId`; counts only when asked. */
export function presentPartialGuild(guild: GuildRecord, userId: string, withCounts: boolean): RESTAPIPartialCurrentUserGuild {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: null,
    owner: guild.ownerId === userId,
    permissions: guildPermissions(guild, userId).toString(),
    features: [],
    ...(withCounts ? { approximate_member_count: guild.members.size, approximate_presence_count: Math.ceil(guild.members.size / 3) } : {}),
  };
}
