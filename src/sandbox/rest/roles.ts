// Roles as a bot with Manage Roles changes them, held to Discord's rules: it creates roles with
// permissions it holds itself (at most 250 roles), edits and deletes only roles strictly below its
// highest role and never grants what it lacks, cannot delete @everyone or a managed role, and
// reorders only what sits below it.
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { invalidRole, maxRoles, missingPermissions, unknownRole } from '../errors';
import { canManageRole, guildPermissions, hasPermission } from '../permissions';
import { isManagedRole, presentRole, presentRoles } from '../presenters';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { GuildRecord, RoleRecord } from '../types';
import type { RoleInput } from '../world-structure';
import { botGuild, requireGuildPermission } from './guards';
import { parseDiscordBody } from './validate';

/** Discord's cap on a guild's roles. */
export const MAX_ROLES_PER_GUILD = 250;

const roleSchema = z.looseObject({
  name: z.string().nullish(),
  permissions: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).nullish(),
  color: z.number().int().nullish(),
  colors: z.looseObject({ primary_color: z.number().int().nullish() }).nullish(),
  hoist: z.boolean().nullish(),
  mentionable: z.boolean().nullish(),
});

/** The changes a role body asks for (nulls change nothing, as on Discord). */
function roleInput(body: z.infer<typeof roleSchema>): RoleInput {
  const color = body.colors?.primary_color ?? body.color;
  return {
    ...(body.name !== undefined && body.name !== null ? { name: body.name } : {}),
    ...(body.permissions !== undefined && body.permissions !== null ? { permissions: BigInt(body.permissions) } : {}),
    ...(color !== undefined && color !== null ? { color } : {}),
    ...(body.hoist !== undefined && body.hoist !== null ? { hoist: body.hoist } : {}),
    ...(body.mentionable !== undefined && body.mentionable !== null ? { mentionable: body.mentionable } : {}),
  };
}

/** 50013 unless the bot holds every permission `permissions` adds to `before`. */
function requireGrantable(guild: GuildRecord, botId: string, before: bigint, permissions: bigint | undefined): void {
  if (permissions === undefined) return;
  if (!hasPermission(guildPermissions(guild, botId), permissions & ~before)) throw missingPermissions();
}

/** Roles: get one, create, edit, delete, reorder. */
export function registerRoleRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;
  const guildRole = (guildId: string, roleId: string) => {
    const guild = botGuild(world, guildId);
    const role = guild.roles.get(roleId);
    if (!role) throw unknownRole();
    return { guild, role };
  };
  const context = (reason: string | null) => ({ actorId: world.botUserId, reason });

  router.add('GET', '/guilds/:guildId/roles/:roleId', 'bot', ({ params }) => ok(presentRole(guildRole(params.guildId ?? '', params.roleId ?? '').role)));

  router.add('POST', '/guilds/:guildId/roles', 'bot', ({ params, body, reason }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageRoles);
    const input = roleInput(parseDiscordBody(roleSchema, body));
    requireGrantable(guild, world.botUserId, 0n, input.permissions);
    if (guild.roles.size >= MAX_ROLES_PER_GUILD) throw maxRoles();
    // Discord's defaults: "new role" with @everyone's permissions.
    const everyone = guild.roles.get(guild.id)?.permissions ?? 0n;
    const role = world.structure.createRole(
      guild.id,
      { ...input, name: input.name ?? 'new role', permissions: input.permissions ?? everyone },
      context(reason),
    );
    return ok(presentRole(role));
  });

  router.add('PATCH', '/guilds/:guildId/roles/:roleId', 'bot', ({ params, body, reason }) => {
    const { guild, role } = guildRole(params.guildId ?? '', params.roleId ?? '');
    requireGuildPermission(world, guild, P.ManageRoles);
    if (!canManageRole(guild, world.botUserId, role.id)) throw missingPermissions();
    const input = roleInput(parseDiscordBody(roleSchema, body));
    requireGrantable(guild, world.botUserId, role.permissions, input.permissions);
    world.structure.updateRole(guild.id, role, input, context(reason));
    return ok(presentRole(role));
  });

  router.add('DELETE', '/guilds/:guildId/roles/:roleId', 'bot', ({ params, reason }) => {
    const { guild, role } = guildRole(params.guildId ?? '', params.roleId ?? '');
    requireGuildPermission(world, guild, P.ManageRoles);
    if (role.id === guild.id || isManagedRole(role)) throw invalidRole();
    if (!canManageRole(guild, world.botUserId, role.id)) throw missingPermissions();
    world.structure.deleteRole(guild.id, role, context(reason));
    return noContent();
  });

  // Positions: the roles named go where asked, the rest keep their order around them. A role the bot
  // cannot manage (its own, those above it) must keep its place in the order, or nothing moves (50013);
  // clients that send every role with its index (discord.js's setPosition) keep those in place.
  router.add('PATCH', '/guilds/:guildId/roles', 'bot', ({ params, body }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageRoles);
    const input = parseDiscordBody(z.array(z.looseObject({ id: z.string(), position: z.number().int().nullish() })), body);
    const moves: Array<[RoleRecord, number]> = [];
    for (const { id, position } of input) {
      const role = guild.roles.get(id);
      if (!role) throw unknownRole();
      if (role.id === guild.id) {
        if (position !== undefined && position !== null && position !== 0) throw invalidRole();
        continue;
      }
      if (position !== undefined && position !== null) moves.push([role, position]);
    }
    const before = rankOf(world.structure.roleOrder(guild, []));
    const after = rankOf(world.structure.roleOrder(guild, moves));
    for (const [id, rank] of after) if (before.get(id) !== rank && !canManageRole(guild, world.botUserId, id)) throw missingPermissions();
    world.structure.moveRoles(guild.id, moves);
    return ok(presentRoles(guild));
  });
}

/** Each role's index in an order of roles. */
function rankOf(ordered: RoleRecord[]): Map<string, number> {
  return new Map(ordered.map((r, index) => [r.id, index]));
}
