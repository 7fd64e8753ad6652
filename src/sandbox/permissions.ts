import { OverwriteType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { ChannelRecord, GuildRecord, MemberRecord } from './types';

/** Every permission bit Discord defines (what the owner and Administrators hold). */
export const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/** True when `permissions` holds every bit in `required` (Administrator counts as all). */
export function hasPermission(permissions: bigint, required: bigint): boolean {
  if ((permissions & PermissionFlagsBits.Administrator) === PermissionFlagsBits.Administrator) return true;
  return (permissions & required) === required;
}

/** Guild-level permissions of a member: @everyone (role id = guild id) plus their roles; owner and Administrator get all. */
export function guildPermissions(guild: GuildRecord, userId: string): bigint {
  if (guild.ownerId === userId) return ALL_PERMISSIONS;
  const member = guild.members.get(userId);
  if (!member) return 0n;
  let permissions = guild.roles.get(guild.id)?.permissions ?? 0n;
  for (const roleId of member.roleIds) permissions |= guild.roles.get(roleId)?.permissions ?? 0n;
  if ((permissions & PermissionFlagsBits.Administrator) !== 0n) return ALL_PERMISSIONS;
  return permissions;
}

/**
 * Channel permissions, computed like Discord: base permissions, then the @everyone overwrite, then the
 * union of the member's role overwrites (deny before allow), then the member's own overwrite.
 */
export function channelPermissions(guild: GuildRecord, channel: ChannelRecord, userId: string): bigint {
  let permissions = guildPermissions(guild, userId);
  if (permissions === ALL_PERMISSIONS) return permissions;
  const member = guild.members.get(userId);
  if (!member) return 0n;
  const everyone = channel.overwrites.find((o) => o.id === guild.id);
  if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of channel.overwrites) {
    if (overwrite.type === OverwriteType.Role && overwrite.id !== guild.id && member.roleIds.includes(overwrite.id)) {
      allow |= overwrite.allow;
      deny |= overwrite.deny;
    }
  }
  permissions = (permissions & ~deny) | allow;
  const own = channel.overwrites.find((o) => o.type === OverwriteType.Member && o.id === userId);
  if (own) permissions = (permissions & ~own.deny) | own.allow;
  // Without View Channel nothing else in the channel applies.
  if ((permissions & PermissionFlagsBits.ViewChannel) === 0n) return 0n;
  return permissions;
}

/** The position of the member's highest role (0 = only @everyone). */
export function highestRolePosition(guild: GuildRecord, member: MemberRecord | undefined): number {
  if (!member) return 0;
  let highest = 0;
  for (const roleId of member.roleIds) highest = Math.max(highest, guild.roles.get(roleId)?.position ?? 0);
  return highest;
}

/** Whether `actorId` outranks `targetId` (kick, ban, timeout, nick): never the owner; the owner outranks all. */
export function outranks(guild: GuildRecord, actorId: string, targetId: string): boolean {
  if (targetId === guild.ownerId) return false;
  if (actorId === guild.ownerId) return true;
  return highestRolePosition(guild, guild.members.get(actorId)) > highestRolePosition(guild, guild.members.get(targetId));
}

/** Whether `actorId` may give or take `roleId`: the role must sit strictly below the actor's highest role. */
export function canManageRole(guild: GuildRecord, actorId: string, roleId: string): boolean {
  if (actorId === guild.ownerId) return true;
  const role = guild.roles.get(roleId);
  if (!role) return false;
  return highestRolePosition(guild, guild.members.get(actorId)) > role.position;
}
