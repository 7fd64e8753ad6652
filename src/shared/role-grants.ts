// Role grants the bot could not finish when it tried (Discord did not answer, or refused): what the
// dashboard lists, the retry schedule both faces describe, and the sentences people read.
import * as z from 'zod';

/** What a grant was for: a reaction role entry, a level reward, rule verification, or the auto-assigned member role. */
export const ROLE_GRANT_SOURCES = ['reactionRole', 'levelReward', 'verification', 'memberRole', 'roleMenu'] as const;
export type RoleGrantSource = (typeof ROLE_GRANT_SOURCES)[number];

/** How each source is named on the dashboard. */
export const ROLE_GRANT_SOURCE_LABELS: Record<RoleGrantSource, string> = {
  reactionRole: 'Reaction role',
  levelReward: 'Level reward',
  verification: 'Rule verification',
  memberRole: 'Auto-assigned member role',
  roleMenu: 'Role menu',
};

/**
 * pending: waiting for its next try; done: given (or taken) in the end; failed: Discord refused,
 * or never answered within the schedule; dropped: no longer wanted (the member left, the reaction
 * was taken off, an admin dismissed it).
 */
export const ROLE_GRANT_STATUSES = ['pending', 'done', 'failed', 'dropped'] as const;
export type RoleGrantStatus = (typeof ROLE_GRANT_STATUSES)[number];

/** Giving the role, or taking it away. */
export const ROLE_GRANT_ACTIONS = ['add', 'remove'] as const;
export type RoleGrantAction = (typeof ROLE_GRANT_ACTIONS)[number];

/**
 * The wait before each retry after a try Discord did not answer: 1, 2, 5, 15 and 60 minutes, so
 * six tries in all over about an hour and a half; then the grant is given up as failed.
 */
export const ROLE_GRANT_RETRY_DELAYS_MS = [1, 2, 5, 15, 60].map((minutes) => minutes * 60_000);

/** A grant still not through this long after it was queued is given up at its next failed try. */
export const ROLE_GRANT_GIVE_UP_MS = 24 * 60 * 60_000;

/** The most grants GET /role-grants lists (newest first); the counts stay whole. */
export const ROLE_GRANT_LIST_LIMIT = 100;

/** One grant that is waiting or failed, as the dashboard lists it. */
export const RoleGrantSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  /** The member's name when the grant was queued (or now, when the bot still knows them). */
  memberName: z.string().nullable(),
  roleId: z.string(),
  /** The role's name now, or when the grant was queued if the role is gone. */
  roleName: z.string().nullable(),
  action: z.enum(ROLE_GRANT_ACTIONS),
  source: z.enum(ROLE_GRANT_SOURCES),
  /** What it was for, in words: "Reaction role 🌩️ in #general", "Level 5 reward". */
  purpose: z.string(),
  status: z.enum(ROLE_GRANT_STATUSES),
  /** Tries made so far. */
  attempts: z.number().int(),
  /** When the next try is due (pending grants only). */
  nextAttemptAt: z.string().nullable(),
  /** Why the last try did not go through, as a sentence. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RoleGrant = z.infer<typeof RoleGrantSchema>;

/** GET /api/servers/:guildId/role-grants: the waiting and failed grants, newest first, and how many of each. */
export const RoleGrantListSchema = z.object({
  items: z.array(RoleGrantSchema),
  pending: z.number().int(),
  failed: z.number().int(),
});
export type RoleGrantList = z.infer<typeof RoleGrantListSchema>;

/** How the dashboard names each status of a grant it lists. */
export const ROLE_GRANT_STATUS_LABELS: Record<RoleGrantStatus, string> = {
  pending: 'Waiting for Discord',
  done: 'Done',
  failed: 'Failed',
  dropped: 'No longer needed',
};

/** The dashboard's toasts and the server's refusals for the grant actions. */
export const ROLE_GRANT_MESSAGES = {
  notFound: 'That role grant does not exist in this server.',
  settled: 'That role grant is settled already: there is nothing left to retry or dismiss.',
  busy: 'That role grant is being tried right now. Its result shows in a moment.',
  dismissed: 'Dismissed on the dashboard.',
  /** Retry now's toast title, by what became of the grant. */
  retried: { done: 'Role grant done', pending: 'Discord did not answer yet', failed: 'Discord refused again', dropped: 'No longer needed' } satisfies Record<
    RoleGrantStatus,
    string
  >,
  dismissedTitle: 'Role grant dismissed',
} as const;
