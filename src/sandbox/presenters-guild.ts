import {
  GuildMFALevel,
  GuildNSFWLevel,
  GuildPremiumTier,
  type APIEmoji,
  type APIGuild,
  type APIThreadChannel,
  type GatewayGuildCreateDispatchData,
  type GatewayVoiceState,
  type RESTAPIPartialCurrentUserGuild,
} from 'discord-api-types/v10';
import { guildPermissions } from './permissions';
import { presentChannel, presentMember, presentRoles, type UserSource } from './presenters';
import type { EmojiRecord, GuildRecord, VoiceStateRecord } from './types';

/** A guild as `GET /guilds/:id` returns it. */
export function presentGuild(guild: GuildRecord): APIGuild & { home_header: null; nsfw: boolean } {
  const boosts = boostCount(guild);
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
    afk_channel_id: guild.afkChannelId,
    afk_timeout: guild.afkTimeout,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: guild.verificationLevel,
    default_message_notifications: guild.defaultMessageNotifications,
    explicit_content_filter: guild.explicitContentFilter,
    roles: presentRoles(guild),
    emojis: [...guild.emojis.values()].map(presentEmoji),
    stickers: [],
    features: [],
    mfa_level: GuildMFALevel.None,
    application_id: null,
    system_channel_id: guild.systemChannelId,
    system_channel_flags: guild.systemChannelFlags,
    rules_channel_id: guild.rulesChannelId,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    premium_tier: premiumTier(boosts),
    premium_subscription_count: boosts,
    preferred_locale: guild.preferredLocale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: GuildNSFWLevel.Default,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: guild.incidents
      ? { invites_disabled_until: guild.incidents.invitesDisabledUntil, dms_disabled_until: guild.incidents.dmsDisabledUntil }
      : null,
    home_header: null,
    hub_type: null,
    nsfw: false,
  };
}

/** Boosts of a guild: one per boosting member. */
export function boostCount(guild: GuildRecord): number {
  let count = 0;
  for (const member of guild.members.values()) if (member.premiumSince) count += 1;
  return count;
}

/** The boost level Discord grants for a number of boosts (2, 7 and 14). */
export function premiumTier(boosts: number): GuildPremiumTier {
  if (boosts >= 14) return GuildPremiumTier.Tier3;
  if (boosts >= 7) return GuildPremiumTier.Tier2;
  if (boosts >= 2) return GuildPremiumTier.Tier1;
  return GuildPremiumTier.None;
}

/** One member's voice state; `state` null is the member leaving voice. */
export function presentVoiceState(guild: GuildRecord, userId: string, state: VoiceStateRecord | null): GatewayVoiceState {
  const member = guild.members.get(userId);
  return {
    guild_id: guild.id,
    channel_id: state?.channelId ?? null,
    user_id: userId,
    session_id: `voice-${userId}`,
    deaf: member?.deaf ?? false,
    mute: member?.mute ?? false,
    self_deaf: state?.selfDeaf ?? false,
    self_mute: state?.selfMute ?? false,
    self_video: state?.selfVideo ?? false,
    self_stream: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

/** The voice states of a guild (who sits in which voice channel). */
export function presentVoiceStates(guild: GuildRecord): GatewayVoiceState[] {
  return [...guild.voice.entries()].map(([userId, state]) => presentVoiceState(guild, userId, state));
}

/** A guild as the gateway sends it (GUILD_CREATE, GUILD_UPDATE): without the REST-only home_header and nsfw. */
export function presentGatewayGuild(guild: GuildRecord): APIGuild {
  const { home_header: _homeHeader, nsfw: _nsfw, ...fields } = presentGuild(guild);
  return fields;
}

/** The GUILD_CREATE payload: the guild with all its channels, roles and members (`botId` for joined_at), and the active `threads` the bot can see. */
export function presentGuildCreate(users: UserSource, guild: GuildRecord, botId: string, threads: APIThreadChannel[] = []): GatewayGuildCreateDispatchData {
  return {
    ...presentGatewayGuild(guild),
    joined_at: guild.members.get(botId)?.joinedAt ?? users.clock.now().toISOString(),
    large: guild.members.size > 250,
    unavailable: false,
    member_count: guild.members.size,
    // GUILD_CREATE's voice states omit guild_id.
    voice_states: presentVoiceStates(guild).map(({ guild_id: _guildId, ...state }) => state),
    members: [...guild.members.values()].map((m) => presentMember(users, m)),
    // Guild channels only (presentChannel's type also covers threads and DMs).
    channels: [...guild.channels.values()].map(presentChannel) as GatewayGuildCreateDispatchData['channels'],
    threads,
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
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

/** A custom emoji as Discord shows it. */
export function presentEmoji(emoji: EmojiRecord): APIEmoji {
  return { id: emoji.id, name: emoji.name, roles: [], require_colons: true, managed: false, animated: emoji.animated, available: true };
}
