import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { missingPermissions, unknownBan, unknownUser } from '../errors';
import { outranks } from '../permissions';
import { presentUserById } from '../presenters';
import { z } from 'zod';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botGuild, requireGuildPermission } from './guards';
import { parseDiscordBody } from './validate';

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

  router.add('PUT', '/guilds/:guildId/bans/:userId', 'bot', ({ params, reason, body }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const userId = params.userId ?? '';
    requireGuildPermission(world, guild, P.BanMembers);
    if (!world.users.has(userId)) throw unknownUser();
    if (!outranks(guild, world.botUserId, userId)) throw missingPermissions();
    const input = parseDiscordBody(z.looseObject({ delete_message_seconds: z.number().int().min(0).max(604_800).nullish() }), body ?? {});
    // A second ban of a banned user changes nothing (and still answers 204).
    world.ban(guild.id, userId, { actorId: world.botUserId, reason }, input.delete_message_seconds ?? 0);
    return noContent();
  });

  router.add('GET', '/guilds/:guildId/audit-logs', 'bot', ({ params, query }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ViewAuditLog);
    const userId = query.get('user_id');
    const action = query.get('action_type');
    const before = query.get('before');
    const after = query.get('after');
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 50)));
    let entries = [...guild.auditLog]
      .reverse()
      .filter(
        (entry) =>
          (!userId || entry.user_id === userId) &&
          (!action || String(entry.action_type) === action) &&
          (!before || BigInt(entry.id) < BigInt(before)) &&
          (!after || BigInt(entry.id) > BigInt(after)),
      );
    entries = after ? entries.reverse().slice(0, limit).reverse() : entries.slice(0, limit);
    const userIds = new Set(
      entries.flatMap((entry) => [entry.user_id, entry.target_id].filter((id): id is string => Boolean(id) && world.users.has(id ?? ''))),
    );
    return ok({
      audit_log_entries: entries,
      users: [...userIds].map((id) => presentUserById(world, id)),
      integrations: [],
      webhooks: [],
      guild_scheduled_events: [],
      threads: [],
      application_commands: [],
      auto_moderation_rules: [],
    });
  });

  router.add('DELETE', '/guilds/:guildId/bans/:userId', 'bot', ({ params, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.BanMembers);
    if (!world.unban(guild.id, params.userId ?? '', { actorId: world.botUserId, reason })) throw unknownBan();
    return noContent();
  });
}
