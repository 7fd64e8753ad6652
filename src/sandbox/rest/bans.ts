import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { missingPermissions, unknownBan, unknownUser } from '../errors';
import { outranks } from '../permissions';
import { presentUserById } from '../presenters';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botGuild, requireGuildPermission } from './guards';

/** Bans: list, fetch one, ban (hierarchy enforced, never the owner), unban. */
export function registerBanRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/guilds/:guildId/bans', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.BanMembers);
    return ok([...guild.bans.values()].map((b) => ({ user: presentUserById(world, b.userId), reason: b.reason })));
  });

  router.add('GET', '/guilds/:guildId/bans/:userId', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.BanMembers);
    const ban = guild.bans.get(params.userId ?? '');
    if (!ban) throw unknownBan();
    return ok({ user: presentUserById(world, ban.userId), reason: ban.reason });
  });

  router.add('PUT', '/guilds/:guildId/bans/:userId', 'bot', ({ params, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const userId = params.userId ?? '';
    requireGuildPermission(world, guild, P.BanMembers);
    if (!world.users.has(userId)) throw unknownUser();
    if (!outranks(guild, world.botUserId, userId)) throw missingPermissions();
    world.ban(guild.id, userId, { actorId: world.botUserId, reason });
    return noContent();
  });

  router.add('DELETE', '/guilds/:guildId/bans/:userId', 'bot', ({ params, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.BanMembers);
    if (!world.unban(guild.id, params.userId ?? '', { actorId: world.botUserId, reason })) throw unknownBan();
    return noContent();
  });
}
