// Join raids (issue 24, point 4): the raid rule (N joins within M seconds turn raid mode on, which
// raises the verification level, pauses invites, times out the raid's joiners and alerts the
// moderators, and falls back after a quiet period) and the account-age rule for joins. The
// settings slice, the status GET /api/servers/:guildId/moderation/raid answers, and the words
// both the commands and the dashboard use. Zeppelin's antiraid levels are the reference.
import * as z from 'zod';
import { flag, optionalId, optionalText, wholeNumber } from './fields';
import { DURATION_LABELS, durationField, MAX_REASON_LENGTH } from './moderation';
import { counted } from './words';

/** Discord's verification levels a raid may raise the server to, in Discord's order (1-4); 0 is None. */
export const RAISED_LEVELS = ['low', 'medium', 'high', 'highest'] as const;
export type RaisedLevel = (typeof RAISED_LEVELS)[number];
/** Discord's number of each level (GuildVerificationLevel). */
export const LEVEL_NUMBERS: Record<RaisedLevel, number> = { low: 1, medium: 2, high: 3, highest: 4 };
/** How Discord's settings name each level, by its number. */
export const VERIFICATION_NAMES = ['None', 'Low', 'Medium', 'High', 'Highest'] as const;
/** What each level asks of a member before they may talk (Discord's words, shortened). */
export const VERIFICATION_HINTS: Record<RaisedLevel, string> = {
  low: 'a verified email',
  medium: 'a verified email and an account older than 5 minutes',
  high: 'a verified email, an account older than 5 minutes and 10 minutes in the server',
  highest: 'a verified phone number',
};
/** A level's name by Discord's number ("Unknown" past Highest). */
export const verificationName = (level: number | null | undefined) =>
  level === null || level === undefined ? 'Unknown' : (VERIFICATION_NAMES[level] ?? 'Unknown');

/** The ranges of the rules' numbers (the schema's and the dashboard's). */
export const RAID_LIMITS = {
  joins: { min: 3, max: 100 },
  seconds: { min: 5, max: 600 },
  quietMinutes: { min: 1, max: 1440 },
  accountAgeDays: { min: 1, max: 365 },
} as const;

/** Discord's incident actions pause invites for at most 24 hours: the bot asks for a little less and renews while the raid lasts. */
export const INVITE_PAUSE_MS = 24 * 3_600_000 - 60_000;
/** The pause is renewed once less than this is left. */
export const INVITE_RENEW_BEFORE_MS = 12 * 3_600_000;

const limit = (key: keyof typeof RAID_LIMITS) => wholeNumber(RAID_LIMITS[key].min, RAID_LIMITS[key].max);

/** The raid rule: when raid mode turns on, and what it does. */
export const RaidRuleSchema = z
  .object({
    enabled: flag(),
    /** This many joins ... */
    joins: limit('joins'),
    /** ... within this many seconds turn raid mode on. */
    seconds: limit('seconds'),
    /** Raid mode falls back after this many minutes without such a burst. */
    quietMinutes: limit('quietMinutes'),
    raiseVerification: flag(),
    verificationLevel: z.enum(RAISED_LEVELS, { error: `must be one of ${RAISED_LEVELS.join(', ')}` }),
    pauseInvites: flag(),
    timeoutJoiners: flag(),
    timeoutDuration: durationField(),
    alert: flag(),
    /** The role the alert pings (nobody else is pinged); none: no ping. */
    alertRoleId: optionalId(),
  })
  .strict();
export type RaidRule = z.infer<typeof RaidRuleSchema>;

/** What the account-age rule does to a young account that joins. */
export const ACCOUNT_AGE_ACTIONS = ['timeout', 'kick', 'flag'] as const;
export type AccountAgeAction = (typeof ACCOUNT_AGE_ACTIONS)[number];

/** The account-age rule: accounts younger than `minDays` are timed out, kicked, or only flagged to the moderators. */
export const AccountAgeRuleSchema = z
  .object({
    enabled: flag(),
    minDays: limit('accountAgeDays'),
    action: z.enum(ACCOUNT_AGE_ACTIONS, { error: 'must be timeout, kick or flag' }),
    duration: durationField().nullable(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.action === 'timeout' && !rule.duration) ctx.addIssue({ code: 'custom', path: ['duration'], message: 'is required for a timeout' });
  });
export type AccountAgeRule = z.infer<typeof AccountAgeRuleSchema>;

/** The raid slice of a guild's settings (composed beside moderation's in src/shared/settings.ts). */
export const RaidSettingsSchema = z.object({ raidRule: RaidRuleSchema, accountAgeRule: AccountAgeRuleSchema });
export type RaidSettings = z.infer<typeof RaidSettingsSchema>;

/** Both rules off until an admin turns them on; the numbers are common choices (Zeppelin's "medium"). */
export const RAID_DEFAULTS: RaidSettings = {
  raidRule: {
    enabled: false,
    joins: 10,
    seconds: 10,
    quietMinutes: 10,
    raiseVerification: true,
    verificationLevel: 'high',
    pauseInvites: true,
    timeoutJoiners: true,
    timeoutDuration: '1h',
    alert: true,
    alertRoleId: null,
  },
  accountAgeRule: { enabled: false, minDays: 7, action: 'flag', duration: null },
};

/** POST .../moderation/raid/start and .../end: an optional reason, kept in the log. */
export const RaidActionInput = z.object({ reason: optionalText(MAX_REASON_LENGTH).optional() }).strict();
export type RaidActionInput = z.input<typeof RaidActionInput>;

/** Raid mode as the card and /raid status show it. */
export const RaidStatusSchema = z.object({
  active: z.boolean(),
  /** The rule's switch (raid mode can be started by hand with it off). */
  ruleEnabled: z.boolean(),
  startedAt: z.string().nullable(),
  /** Who started it: the rule (automatic) or a moderator. */
  trigger: z.enum(['automatic', 'manual']).nullable(),
  startedByName: z.string().nullable(),
  /** The joins that turned it on and the window they came in. */
  joinCount: z.number().int(),
  windowSeconds: z.number().int(),
  /** The level raid mode raised the server to, and what it was (null: not raised). */
  raisedTo: z.number().int().nullable(),
  previousLevel: z.number().int().nullable(),
  invitesPausedUntil: z.string().nullable(),
  timedOut: z.number().int(),
  lastBurstAt: z.string().nullable(),
  /** When raid mode falls back if no burst comes before. */
  fallsBackAt: z.string().nullable(),
  /** The last raid mode's end, when none is on. */
  endedAt: z.string().nullable(),
  /** What raid mode could not do, in words (a permission the bot lacks). */
  problems: z.array(z.string()),
});
export type RaidStatus = z.infer<typeof RaidStatusSchema>;

/** What start and end answer: the sentence to show and raid mode after it. */
export const RaidResultSchema = z.object({ message: z.string(), status: RaidStatusSchema });
export type RaidResult = z.infer<typeof RaidResultSchema>;

/** "12 joins in 10 seconds": the rule's reason in words. */
export const burstLabel = (joins: number, seconds: number) => `${counted(joins, 'join')} in ${counted(seconds, 'second')}`;

/** The reason of the bot's cases and audit entries for a raid ("Raid protection: 12 joins in 10 seconds"). */
export const raidReason = (joins: number, seconds: number) => `Raid protection: ${burstLabel(joins, seconds)}`;

/** What raid mode did, in words: "verification raised to High, invites paused, 14 members timed out". */
export function raidActionsLabel(status: Pick<RaidStatus, 'raisedTo' | 'invitesPausedUntil' | 'timedOut'>): string {
  const parts = [
    ...(status.raisedTo !== null ? [`verification raised to ${verificationName(status.raisedTo)}`] : []),
    ...(status.invitesPausedUntil ? ['invites paused'] : []),
    ...(status.timedOut > 0 ? [`${counted(status.timedOut, 'member')} timed out`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : 'nothing changed in Discord';
}

/** "Raid mode since 17:20 — verification raised to High, invites paused, 14 members timed out"; `time` formats the start. */
export function raidSummary(status: RaidStatus, time: (iso: string) => string): string {
  if (!status.active || !status.startedAt) return status.ruleEnabled ? 'No raid: the rule is watching joins.' : 'No raid. The raid rule is off.';
  return `Raid mode since ${time(status.startedAt)} — ${raidActionsLabel(status)}`;
}

/** How the account-age rule's action reads in the dashboard. */
export const ACCOUNT_AGE_ACTION_LABELS: Record<AccountAgeAction, string> = {
  timeout: 'Time out',
  kick: 'Kick',
  flag: 'Only flag to the moderators',
};

/** What the account-age rule does, in a sentence. */
export function accountAgeLabel(rule: AccountAgeRule): string {
  const what =
    rule.action === 'timeout'
      ? `are timed out for ${rule.duration ? DURATION_LABELS[rule.duration] : 'a while'}`
      : rule.action === 'kick'
        ? 'are kicked'
        : 'are flagged to the moderators in the log channel';
  return `Accounts younger than ${counted(rule.minDays, 'day')} ${what} when they join.`;
}
