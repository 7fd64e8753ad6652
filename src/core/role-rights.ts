// Who may make the bot hand out a role: the rule, with no face and no gateway. Whatever stores a
// role for the bot to give (shop items, the auto-assigned member role, the verification role, level
// rewards, reaction roles) asks it with the acting person's live Discord standing, so the bot never
// gives on someone's behalf a role they could not give in Discord themselves: delegated dashboard
// access ("edit" for a roleless member) and Manage Server add no Discord power.
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { RoleStanding } from '../bot/gateway';

/** The acting person as Discord sees them in one guild. */
export interface RoleActor {
  isOwner: boolean;
  /** Guild-wide permissions. */
  permissions: bigint;
  /** Their highest role (@everyone when they have none). */
  highestRole: RoleStanding;
}

/** The role to hand out. */
export interface RoleToGive extends RoleStanding {
  /** What the role itself carries. */
  permissions: bigint;
}

const P = PermissionFlagsBits;

/**
 * Permissions that make a role staff: whoever holds it can remove members, change the server or
 * its roles, or ping everyone. Handing such a role out through the bot needs an explicit
 * confirmation on the dashboard, even from the owner.
 */
export const DANGEROUS_PERMISSIONS: readonly bigint[] = [
  P.Administrator,
  P.BanMembers,
  P.KickMembers,
  P.ManageGuild,
  P.ManageRoles,
  P.ManageChannels,
  P.MentionEveryone,
];

/** Discord's names of permissions, where they differ from the flag's words (ManageGuild is "Manage Server" in the app). */
const PERMISSION_LABELS: Partial<Record<keyof typeof PermissionFlagsBits, string>> = {
  ManageGuild: 'Manage Server',
  MentionEveryone: 'Mention @everyone, @here and All Roles',
  ModerateMembers: 'Timeout Members',
  ManageGuildExpressions: 'Manage Expressions',
  ManageEmojisAndStickers: 'Manage Expressions',
  UseVAD: 'Use Voice Activity',
  SendTTSMessages: 'Send Text-to-Speech Messages',
  ViewGuildInsights: 'View Server Insights',
  CreateGuildExpressions: 'Create Expressions',
};

/** The names of the permissions in `bits`, as Discord's app shows them, in Discord's order. */
export function permissionNames(bits: bigint): string[] {
  const names: string[] = [];
  const seen = new Set<bigint>();
  for (const [flag, bit] of Object.entries(PermissionFlagsBits) as [keyof typeof PermissionFlagsBits, bigint][]) {
    if ((bits & bit) === 0n || seen.has(bit)) continue;
    seen.add(bit);
    names.push(PERMISSION_LABELS[flag] ?? flag.replace(/([a-z])([A-Z])/g, '$1 $2'));
  }
  return names;
}

/** "A", "A and B", "A, B and C". */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The dangerous permissions a role carries (none: an ordinary role). */
export function dangerousPermissionsOf(role: Pick<RoleToGive, 'permissions'>): bigint {
  return DANGEROUS_PERMISSIONS.reduce((found, bit) => ((role.permissions & bit) !== 0n ? found | bit : found), 0n);
}

/**
 * Discord's hierarchy: the higher position is higher; at equal positions the role created first
 * (the smaller id) is higher. Negative when `a` is below `b`, 0 for the same role.
 */
export function compareRoles(a: RoleStanding, b: RoleStanding): number {
  if (a.position !== b.position) return a.position - b.position;
  if (a.id === b.id) return 0;
  return BigInt(a.id) < BigInt(b.id) ? 1 : -1;
}

/**
 * Why `actor` could not give `role` in Discord themselves, as a sentence naming the role; null
 * when they could. Discord's rule: the owner and Administrators give any role; anyone else needs
 * Manage Roles and a highest role strictly above it, and cannot hand out a permission they lack.
 */
export function cannotGiveRole(actor: RoleActor, role: RoleToGive): string | null {
  if (actor.isOwner || (actor.permissions & P.Administrator) !== 0n) return null;
  if ((actor.permissions & P.ManageRoles) === 0n) {
    return `You cannot hand out @${role.name}: giving roles needs the Manage Roles permission in Discord, and you do not have it.`;
  }
  if (compareRoles(role, actor.highestRole) >= 0) {
    const yours = actor.highestRole.position === 0 ? 'you have no role above @everyone' : `your highest role is @${actor.highestRole.name}`;
    return `You cannot hand out @${role.name}: in Discord you can only give roles below your highest role, and ${yours}.`;
  }
  const lacking = role.permissions & ~actor.permissions;
  if (lacking !== 0n) {
    return `You cannot hand out @${role.name}: it carries ${listInWords(permissionNames(lacking))}, which you do not have yourself.`;
  }
  return null;
}

/**
 * What whoever gets `role` from the bot could do, when that is staff's power: a sentence for the
 * confirmation, or null for an ordinary role.
 */
export function dangerousRoleWarning(role: RoleToGive): string | null {
  const dangerous = dangerousPermissionsOf(role);
  if (dangerous === 0n) return null;
  return `@${role.name} carries ${listInWords(permissionNames(dangerous))}: every member who gets it from the bot can use them.`;
}
