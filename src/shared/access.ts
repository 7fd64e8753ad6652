import * as z from 'zod';

/**
 * How far a user may go in one guild's dashboard, lowest first:
 * - none: not a member;
 * - member: a member (their own rank and inventory);
 * - view: reads every page (delegated view access);
 * - edit: reads and changes everything (delegated edit access);
 * - manage: Manage Server in Discord;
 * - admin: the owner or an Administrator (also grants dashboard access to others).
 */
export const ACCESS_LEVELS = ['none', 'member', 'view', 'edit', 'manage', 'admin'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export const AccessLevelSchema = z.enum(ACCESS_LEVELS);

/** True when `level` is `needed` or above. */
export function atLeast(level: AccessLevel, needed: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(needed);
}

/** The levels an owner or Administrator can grant to a role or a member. */
export const GRANT_LEVELS = ['view', 'edit'] as const;
export type GrantLevel = (typeof GRANT_LEVELS)[number];

/** A label for the dashboard: what the user is in this guild. */
export function accessLabel(level: AccessLevel): string {
  switch (level) {
    case 'admin':
      return 'Administrator';
    case 'manage':
      return 'Manager';
    case 'edit':
      return 'Editor';
    case 'view':
      return 'Viewer';
    case 'member':
      return 'Member';
    default:
      return 'No access';
  }
}

/** What a member who asks for someone else's own-data page is told (requireSelfOr). */
export const SELF_ONLY = {
  inventory: 'You can only see your own inventory.',
  rank: 'You can only see your own rank.',
  removeItems: 'You can only remove items from your own inventory.',
} as const;
