import { PermissionFlagsBits } from 'discord.js';
import { accountRoute, guildRoute, type RouteSpec } from '../../http/route';
import { managedServers } from '../auth/public';
import { serverOverview, serverStats } from '../stats/public';
import type { Services } from '../../core/services';
import type { GuildMemberView } from '../../bot/gateway';
import { cannotGiveRole, dangerousPermissionsOf, permissionNames } from '../../core/role-rights';
import { MEMBER_SEARCH_LIMIT, MemberSearchQuery, type GuildDirectory, type MemberSummary } from '../../shared/servers';
import { emojiUrl } from '../../shared/discord-urls';

/** /api/servers/stats, the per-server dashboard, and the guild's channels and roles for the pickers. */
export const serverRoutes: RouteSpec[] = [
  accountRoute({
    method: 'get',
    path: '/servers/stats',
    handler: async ({ account, services }) => {
      const servers = await managedServers(services, account);
      const guilds = servers.flatMap((server) => (server.hasBot ? (services.gateway.guild(server.id) ?? []) : []));
      return serverStats(services.store, guilds, services.clock.now());
    },
  }),

  guildRoute({
    method: 'get',
    path: '/overview',
    example: {},
    handler: ({ guild, services }) => serverOverview(services.store, guild, services.clock.now()),
  }),

  guildRoute({
    method: 'get',
    path: '/directory',
    example: {},
    handler: async ({ guild, account, services }) => guildDirectory(services, guild.id, await services.gateway.member(guild.id, account.userId)),
  }),

  guildRoute({
    method: 'get',
    path: '/members',
    query: MemberSearchQuery,
    example: { query: { q: 'a' } },
    handler: ({ query, guild, services }): Promise<MemberSummary[]> => services.gateway.searchMembers(guild.id, query.q, MEMBER_SEARCH_LIMIT),
  }),
];

/**
 * The guild's channels (with what the bot may do in each), roles (with what the bot and the viewer
 * may hand out), custom emojis and the bot's guild-wide rights.
 */
function guildDirectory(services: Services, guildId: string, viewer: GuildMemberView): GuildDirectory {
  const me = services.gateway.botMember(guildId);
  const has = (bit: bigint) => (me ? (me.permissions & bit) !== 0n : false);
  return {
    channels: services.gateway.channels(guildId).map(({ id, name, kind, bot }) => ({
      id,
      name,
      kind,
      bot: {
        send: bot.send,
        embed: bot.view && bot.embed,
        react: bot.view && bot.react,
        readHistory: bot.view && bot.readHistory,
        manageMessages: bot.view && bot.manageMessages,
      },
    })),
    roles: services.gateway.roles(guildId).map((role) => ({
      id: role.id,
      name: role.name,
      managed: role.managed,
      isEveryone: role.isEveryone,
      mentionable: role.mentionable,
      assignable: role.belowBot && !role.managed && !role.isEveryone,
      dangerous: permissionNames(dangerousPermissionsOf(role)),
      notYours: viewer.kind === 'member' ? cannotGiveRole(viewer, role) : 'You are not a member of this server.',
    })),
    bot: { name: me?.displayName ?? 'The bot', manageRoles: has(PermissionFlagsBits.ManageRoles), mentionEveryone: has(PermissionFlagsBits.MentionEveryone) },
    emojis: services.gateway.emojis(guildId).map((emoji) => ({ ...emoji, url: emojiUrl(services.meta, emoji.id, emoji.animated) })),
  };
}
