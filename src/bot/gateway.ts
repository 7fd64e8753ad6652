import { DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, Status, type Client, type Guild } from 'discord.js';
import type { Health } from '../shared/health';

/** The gateway's state as /api/health reports it. */
export type GatewayHealth = Health['gateway'];

/** What the live gateway says about one user in one guild. */
export type GuildAccess =
  | { kind: 'no-bot' }
  | { kind: 'not-member' }
  | { kind: 'member'; canManage: boolean; isOwner: boolean };

/** A guild as the dashboard shows it, from the gateway cache. */
export interface GuildSummary {
  id: string;
  name: string;
  icon: string | null;
  memberCount: number;
  ownerId: string;
}

/** What the HTTP face reads from the bot's live gateway connection. */
export interface BotGateway {
  /** Connection status, heartbeat ping and guild count. */
  health(): GatewayHealth;
  /** The guild if the bot is in it, from the cache. */
  guild(guildId: string): GuildSummary | null;
  /** Whether `userId` may manage `guildId` (owner, Administrator or Manage Server), from live data. */
  access(guildId: string, userId: string): Promise<GuildAccess>;
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

/**
 * Wraps a discord.js client (or none) as the HTTP face's view of the gateway. Members come from
 * the cache the gateway keeps current (GUILD_MEMBER_UPDATE), so a removed role counts at once;
 * a member missing from the cache of a large guild is fetched once and then cached.
 */
export function botGateway(client: Client | null): BotGateway {
  return {
    client,
    health() {
      if (!client) return { status: 'not_configured', ping: -1, guilds: 0 };
      return { status: statusOf(client), ping: client.ws.ping, guilds: client.guilds.cache.size };
    },
    guild(guildId) {
      const guild = client?.guilds.cache.get(guildId);
      return guild && guild.available ? summarize(guild) : null;
    },
    async access(guildId, userId) {
      const guild = client?.guilds.cache.get(guildId);
      if (!guild || !guild.available) return { kind: 'no-bot' };
      let member = guild.members.cache.get(userId);
      if (!member) {
        try {
          member = await guild.members.fetch(userId);
        } catch (error) {
          if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember) return { kind: 'not-member' };
          throw error;
        }
      }
      const isOwner = guild.ownerId === userId;
      const canManage = isOwner || member.permissions.has(PermissionFlagsBits.ManageGuild, true);
      return { kind: 'member', canManage, isOwner };
    },
  };
}
