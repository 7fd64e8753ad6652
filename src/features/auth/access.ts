import type { BotGateway, GuildSummary } from '../../bot/gateway';
import type { User } from '../../db/models/User';
import { listManagedServers, type AuthServices } from './service';

/**
 * The guilds the user manages that have the bot, confirmed against the live gateway (the same
 * test as requireGuildManager), so totals never include a guild the user lost rights in.
 */
export async function managedBotGuilds(deps: { auth: AuthServices; gateway: BotGateway }, user: User): Promise<GuildSummary[]> {
  const servers = await listManagedServers(deps.auth, deps.gateway, user);
  const guilds: GuildSummary[] = [];
  for (const server of servers) {
    if (!server.hasBot) continue;
    const access = await deps.gateway.access(server.id, user.discordId);
    const guild = deps.gateway.guild(server.id);
    if (access.kind === 'member' && access.canManage && guild) guilds.push(guild);
  }
  return guilds;
}
