import { ChannelType, OverwriteType, PermissionFlagsBits } from 'discord-api-types/v10';
import { z } from 'zod';
import { ControlError, controlGuild, parseControlBody } from './control-errors';
import { isManagedRole, presentChannel, presentRole } from './presenters';
import { noContent, ok, type Router } from './router';
import type { SandboxServices } from './services';
import type { OverwriteRecord } from './types';

const snowflake = z.string().regex(/^\d{17,20}$/, 'Must be a snowflake (17-20 digits).');
const PERMISSION_NAMES = Object.keys(PermissionFlagsBits) as [keyof typeof PermissionFlagsBits, ...(keyof typeof PermissionFlagsBits)[]];

/** Permissions as names (['SendMessages', 'ViewChannel']) or a decimal bit set. */
const permissions = z.union([z.array(z.enum(PERMISSION_NAMES)), z.string().regex(/^\d+$/, 'Must be permission names or a decimal bit set.')]);
const toBits = (value: z.infer<typeof permissions>): bigint =>
  typeof value === 'string' ? BigInt(value) : value.reduce((bits, name) => bits | PermissionFlagsBits[name], 0n);

const overwrites = z
  .array(z.object({ id: snowflake, type: z.enum(['role', 'member']), allow: permissions.default([]), deny: permissions.default([]) }))
  .max(100);
const toOverwrites = (list: z.infer<typeof overwrites>): OverwriteRecord[] =>
  list.map((o) => ({ id: o.id, type: o.type === 'role' ? OverwriteType.Role : OverwriteType.Member, allow: toBits(o.allow), deny: toBits(o.deny) }));

const CHANNEL_TYPES = {
  text: ChannelType.GuildText,
  voice: ChannelType.GuildVoice,
  category: ChannelType.GuildCategory,
  announcement: ChannelType.GuildAnnouncement,
} as const;

/** POST /_sandbox/guilds/:guildId/channels */
export const channelCreateSchema = z.object({
  name: z.string().min(1).max(100),
  type: z.enum(['text', 'voice', 'category', 'announcement']).default('text'),
  parentId: snowflake.nullish(),
  topic: z.string().max(1024).nullish(),
  overwrites: overwrites.optional(),
});
/** PATCH /_sandbox/channels/:channelId */
export const channelPatchSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  topic: z.string().max(1024).nullish(),
  overwrites: overwrites.optional(),
  /** Slowmode, in seconds (0-21600). */
  rateLimitPerUser: z.number().int().min(0).max(21600).optional(),
  nsfw: z.boolean().optional(),
});
/** POST /_sandbox/guilds/:guildId/roles and PATCH /_sandbox/guilds/:guildId/roles/:roleId */
export const roleSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  permissions: permissions.optional(),
  position: z.number().int().min(1).optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  mentionable: z.boolean().optional(),
  hoist: z.boolean().optional(),
});

/** Control routes for admins changing a guild's channels and roles in Discord. */
export function registerStructureControls(router: Router, services: SandboxServices): void {
  const { world } = services;
  const channelOf = (channelId: string) => {
    const guild = world.guildOfChannel(channelId);
    const channel = guild?.channels.get(channelId);
    if (!guild || !channel) throw new ControlError(404, 'unknown_channel', `No channel ${channelId}.`);
    return channel;
  };
  const roleOf = (guildId: string, roleId: string) => {
    const guild = controlGuild(services, guildId);
    const role = guild.roles.get(roleId);
    if (!role) throw new ControlError(404, 'unknown_role', `No role ${roleId} in ${guild.name}.`);
    if (isManagedRole(role)) throw new ControlError(400, 'managed_role', "A managed role (a bot's own, the booster role) cannot be edited.");
    return { guild, role };
  };

  router.add('POST', '/guilds/:guildId/channels', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(channelCreateSchema, body);
    if (input.parentId && guild.channels.get(input.parentId)?.type !== ChannelType.GuildCategory)
      throw new ControlError(400, 'invalid_body', 'parentId is not a category of the guild.', { parentId: 'Not a category.' });
    const channel = world.structure.createChannel(guild.id, {
      name: input.name,
      type: CHANNEL_TYPES[input.type],
      parentId: input.parentId ?? null,
      topic: input.topic ?? null,
      overwrites: toOverwrites(input.overwrites ?? []),
    });
    return ok(presentChannel(channel), 201);
  });

  router.add('PATCH', '/channels/:channelId', 'none', ({ params, body }) => {
    const channel = channelOf(params.channelId ?? '');
    const input = parseControlBody(channelPatchSchema, body);
    world.structure.updateChannel(channel, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.topic !== undefined ? { topic: input.topic ?? null } : {}),
      ...(input.overwrites ? { overwrites: toOverwrites(input.overwrites) } : {}),
      ...(input.rateLimitPerUser !== undefined ? { rateLimitPerUser: input.rateLimitPerUser } : {}),
      ...(input.nsfw !== undefined ? { nsfw: input.nsfw } : {}),
    });
    return ok(presentChannel(channel));
  });

  router.add('DELETE', '/channels/:channelId', 'none', ({ params }) => {
    world.structure.deleteChannel(channelOf(params.channelId ?? ''));
    return noContent();
  });

  router.add('POST', '/guilds/:guildId/roles', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(roleSchema.extend({ name: z.string().min(1).max(100) }), body);
    const { permissions: given, ...rest } = input;
    const role = world.structure.createRole(guild.id, { ...rest, ...(given !== undefined ? { permissions: toBits(given) } : {}) });
    return ok(presentRole(role), 201);
  });

  router.add('PATCH', '/guilds/:guildId/roles/:roleId', 'none', ({ params, body }) => {
    const { guild, role } = roleOf(params.guildId ?? '', params.roleId ?? '');
    const input = parseControlBody(roleSchema, body);
    const { permissions: given, ...rest } = input;
    world.structure.updateRole(guild.id, role, { ...rest, ...(given !== undefined ? { permissions: toBits(given) } : {}) });
    return ok(presentRole(role));
  });

  router.add('DELETE', '/guilds/:guildId/roles/:roleId', 'none', ({ params }) => {
    const { guild, role } = roleOf(params.guildId ?? '', params.roleId ?? '');
    if (role.id === guild.id) throw new ControlError(400, 'invalid_body', '@everyone cannot be deleted.');
    world.structure.deleteRole(guild.id, role);
    return noContent();
  });
}
