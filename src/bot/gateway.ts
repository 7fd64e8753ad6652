import {
  ChannelType,
  DiscordAPIError,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  Status,
  type Client,
  type Guild,
  type GuildBasedChannel,
  type GuildMember,
} from 'discord.js';
import { isSnowflake } from '../shared/auth';
import type { Health } from '../shared/health';

/** The gateway's state as /api/health reports it. */
export type GatewayHealth = Health['gateway'];

/** What the live gateway says about one user in one guild. */
export type GuildMemberView =
  | { kind: 'no-bot' }
  | { kind: 'not-member' }
  | {
      kind: 'member';
      isOwner: boolean;
      /** Guild-wide permissions. */
      permissions: bigint;
      roleIds: string[];
      /** A bot account (this one or another). */
      bot: boolean;
      /** Their highest role (@everyone when they have none): what they outrank in Discord's hierarchy. */
      highestRole: RoleStanding;
    };

/** Where a role stands in Discord's hierarchy: by position, ties broken by id (the older role is higher). */
export interface RoleStanding {
  id: string;
  name: string;
  position: number;
}

/** A guild as the dashboard shows it, from the gateway cache. */
export interface GuildSummary {
  id: string;
  name: string;
  icon: string | null;
  memberCount: number;
  ownerId: string;
}

/** A channel of a guild and what the bot may do in it, from the gateway cache. */
export interface ChannelView {
  id: string;
  name: string;
  kind: 'text' | 'announcement' | 'voice' | 'category' | 'other';
  /** The bot's effective permissions there (overwrites applied). */
  bot: { view: boolean; send: boolean; embed: boolean; react: boolean; readHistory: boolean; manageMessages: boolean };
}

/** A role of a guild, and where it stands against the bot's highest role. */
export interface RoleView {
  id: string;
  name: string;
  position: number;
  /** Managed by an integration (a bot's own role, a booster role): nobody can give it. */
  managed: boolean;
  isEveryone: boolean;
  /** Strictly below the bot's highest role, so the bot may give and take it. */
  belowBot: boolean;
  /** Anyone may ping it (else only those with Mention Everyone). */
  mentionable: boolean;
  /** The permissions the role itself carries (not its holders' overwrites). */
  permissions: bigint;
}

/** A custom emoji of a guild. */
export interface EmojiView {
  id: string;
  name: string;
  animated: boolean;
}

/** The bot itself in a guild. */
export interface BotMemberView {
  displayName: string;
  nickname: string | null;
  highestRoleName: string;
  /** Guild-wide permissions. */
  permissions: bigint;
}

/** A member as pickers list them. */
export interface MemberSummary {
  id: string;
  username: string;
  displayName: string;
  bot: boolean;
}

/** What the features read from the bot's live gateway connection. */
export interface BotGateway {
  /** Connection status, heartbeat ping and guild count. */
  health(): GatewayHealth;
  /** The guild if the bot is in it, from the cache. */
  guild(guildId: string): GuildSummary | null;
  /** The user as a member of the guild (roles, permissions, ownership), from live data. */
  member(guildId: string, userId: string): Promise<GuildMemberView>;
  /** A channel of the guild, or null when the guild has no such channel. */
  channel(guildId: string, channelId: string): ChannelView | null;
  /** Every channel of the guild, in Discord's order. */
  channels(guildId: string): ChannelView[];
  /** A role of the guild, or null when the guild has no such role. */
  role(guildId: string, roleId: string): RoleView | null;
  /** Every role of the guild, highest first. */
  roles(guildId: string): RoleView[];
  /** The guild's custom emojis. */
  emojis(guildId: string): EmojiView[];
  /** The bot as a member of the guild, or null when it is not in it. */
  botMember(guildId: string): BotMemberView | null;
  /** Members whose name starts with `query`, or the member with that id, asked of Discord (not only the cache). */
  searchMembers(guildId: string, query: string, limit: number): Promise<MemberSummary[]>;
  /** The Discord ids of the application's owner (the team's owner for a team), from Discord's application info. */
  applicationOwnerIds(): Promise<string[]>;
  /** The discord.js client, or null when no bot runs. */
  readonly client: Client | null;
}

/** Maps discord.js's WebSocket status to ours. */
function statusOf(client: Client): GatewayHealth['status'] {
  if (client.isReady() && client.ws.status === Status.Ready) return 'ready';
  switch (client.ws.status) {
    case Status.Reconnecting:
    case Status.Resuming:
      return 'reconnecting';
    case Status.Disconnected:
      return 'disconnected';
    case Status.Idle:
      return client.readyTimestamp ? 'disconnected' : 'connecting';
    default:
      return 'connecting';
  }
}

function summarize(guild: Guild): GuildSummary {
  return { id: guild.id, name: guild.name, icon: guild.icon, memberCount: guild.memberCount, ownerId: guild.ownerId };
}

function kindOf(channel: GuildBasedChannel): ChannelView['kind'] {
  switch (channel.type) {
    case ChannelType.GuildText:
      return 'text';
    case ChannelType.GuildAnnouncement:
      return 'announcement';
    case ChannelType.GuildVoice:
    case ChannelType.GuildStageVoice:
      return 'voice';
    case ChannelType.GuildCategory:
      return 'category';
    default:
      return 'other';
  }
}

function viewChannel(guild: Guild, channel: GuildBasedChannel): ChannelView {
  const me = guild.members.me;
  const permissions = me ? channel.permissionsFor(me) : null;
  const has = (bit: bigint) => permissions?.has(bit, true) ?? false;
  return {
    id: channel.id,
    name: channel.name,
    kind: kindOf(channel),
    bot: {
      view: has(PermissionFlagsBits.ViewChannel),
      send: has(PermissionFlagsBits.ViewChannel) && has(PermissionFlagsBits.SendMessages),
      embed: has(PermissionFlagsBits.EmbedLinks),
      react: has(PermissionFlagsBits.AddReactions),
      readHistory: has(PermissionFlagsBits.ReadMessageHistory),
      manageMessages: has(PermissionFlagsBits.ManageMessages),
    },
  };
}

/** How long Discord's application info (its owner) is reused. */
const APPLICATION_TTL_MS = 5 * 60_000;

/**
 * Wraps a discord.js client (or none) as the features' view of the gateway. Members come from the
 * cache the gateway keeps current (GUILD_MEMBER_UPDATE), so a removed role counts at once; a member
 * missing from the cache of a large guild is fetched once and then cached.
 */
export function botGateway(client: Client | null): BotGateway {
  const available = (guildId: string) => {
    const guild = client?.guilds.cache.get(guildId);
    return guild && guild.available ? guild : null;
  };
  const viewRole = (guild: Guild, roleId: string): RoleView | null => {
    const role = guild.roles.cache.get(roleId);
    if (!role) return null;
    const highest = guild.members.me?.roles.highest;
    return {
      id: role.id,
      name: role.name,
      position: role.position,
      managed: role.managed,
      isEveryone: role.id === guild.id,
      belowBot: highest ? role.comparePositionTo(highest) < 0 : false,
      mentionable: role.mentionable,
      permissions: role.permissions.bitfield,
    };
  };
  let owners: { at: number; ids: string[] } | null = null;

  return {
    client,
    health() {
      if (!client) return { status: 'not_configured', ping: -1, guilds: 0 };
      return { status: statusOf(client), ping: client.ws.ping, guilds: client.guilds.cache.size };
    },
    guild(guildId) {
      const guild = available(guildId);
      return guild ? summarize(guild) : null;
    },
    async member(guildId, userId) {
      const guild = available(guildId);
      if (!guild) return { kind: 'no-bot' };
      let member = guild.members.cache.get(userId);
      if (!member) {
        try {
          member = await guild.members.fetch(userId);
        } catch (error) {
          if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember) return { kind: 'not-member' };
          throw error;
        }
      }
      return {
        kind: 'member',
        isOwner: guild.ownerId === userId,
        permissions: member.permissions.bitfield,
        roleIds: member.roles.cache.filter((role) => role.id !== guild.id).map((role) => role.id),
        bot: member.user.bot,
        highestRole: { id: member.roles.highest.id, name: member.roles.highest.name, position: member.roles.highest.position },
      };
    },
    async searchMembers(guildId, query, limit) {
      const guild = available(guildId);
      if (!guild) return [];
      const summary = (member: GuildMember): MemberSummary => ({
        id: member.id,
        username: member.user.username,
        displayName: member.displayName,
        bot: member.user.bot,
      });
      if (isSnowflake(query)) {
        try {
          return [summary(await guild.members.fetch(query))];
        } catch (error) {
          if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember) return [];
          throw error;
        }
      }
      const found = await guild.members.search({ query, limit });
      return [...found.values()].map(summary);
    },
    channel(guildId, channelId) {
      const guild = available(guildId);
      const channel = guild?.channels.cache.get(channelId);
      return guild && channel ? viewChannel(guild, channel) : null;
    },
    channels(guildId) {
      const guild = available(guildId);
      if (!guild) return [];
      return [...guild.channels.cache.values()]
        .sort((a, b) => ('rawPosition' in a && 'rawPosition' in b ? a.rawPosition - b.rawPosition : 0))
        .map((channel) => viewChannel(guild, channel));
    },
    role(guildId, roleId) {
      const guild = available(guildId);
      return guild ? viewRole(guild, roleId) : null;
    },
    roles(guildId) {
      const guild = available(guildId);
      if (!guild) return [];
      return [...guild.roles.cache.values()].sort((a, b) => b.position - a.position).flatMap((role) => viewRole(guild, role.id) ?? []);
    },
    emojis(guildId) {
      const guild = available(guildId);
      if (!guild) return [];
      return [...guild.emojis.cache.values()].map((emoji) => ({ id: emoji.id, name: emoji.name ?? emoji.id, animated: emoji.animated ?? false }));
    },
    botMember(guildId) {
      const me = available(guildId)?.members.me;
      if (!me) return null;
      return { displayName: me.displayName, nickname: me.nickname, highestRoleName: me.roles.highest.name, permissions: me.permissions.bitfield };
    },
    async applicationOwnerIds() {
      if (!client?.application) return [];
      if (owners && Date.now() - owners.at < APPLICATION_TTL_MS) return owners.ids;
      const application = await client.application.fetch();
      const owner = application.owner;
      const ids = !owner ? [] : 'ownerId' in owner ? [owner.ownerId ?? ''].filter(Boolean) : [owner.id];
      owners = { at: Date.now(), ids };
      return ids;
    },
  };
}
