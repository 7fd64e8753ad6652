// Moderation (spec sections 2, 3, 5 and 8): actions and their cases, the moderation log, reports,
// warning escalation and auto moderation rules. Shared by the routes, the bot and the dashboard.
import * as z from 'zod';
import { Snowflake } from './auth';
import { flag, optionalText, pageQuery, text, wholeNumber } from './fields';

/** What a moderator can do. `note` records without touching Discord; `unban` lifts a ban; `untimeout` lifts a timeout (and ends a long one's renewal). */
export const MODERATION_ACTIONS = ['ban', 'kick', 'timeout', 'warn', 'unban', 'note', 'untimeout'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** What a channel tool records: its target is the channel. */
export const CHANNEL_ACTIONS = ['purge', 'slowmode', 'lock', 'unlock'] as const;
export type ChannelAction = (typeof CHANNEL_ACTIONS)[number];

/**
 * What a case can record: the actions (timeouts lifted early, in Discord too), messages auto
 * moderation deleted, the channel tools, and a warning's pardon (its details name the warning's case).
 */
export const CASE_ACTIONS = [...MODERATION_ACTIONS, 'delete', ...CHANNEL_ACTIONS, 'pardon'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];

/** Where a case came from. */
export const CASE_SOURCES = ['dashboard', 'command', 'discord', 'automatic'] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];

/**
 * The spec's durations (timeouts; a ban with one is lifted when it runs out), and longer ones (issue
 * 24, point 3): Discord times a member out for at most 28 days, so the bot renews a longer timeout
 * until its case's expiry.
 */
export const DURATIONS = {
  '1m': 60_000,
  '5m': 300_000,
  '10m': 600_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
  // Longer than Discord's own timeout (2 weeks is not, and is there because moderators reach for it).
  '2w': 14 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
  '1y': 365 * 86_400_000,
} as const;
export type Duration = keyof typeof DURATIONS;
export const DURATION_KEYS = Object.keys(DURATIONS) as Duration[];
/** How each duration reads in the dialog and the log. */
export const DURATION_LABELS: Record<Duration, string> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '10m': '10 minutes',
  '1h': '1 hour',
  '1d': '1 day',
  '1w': '1 week',
  '2w': '2 weeks',
  '30d': '30 days',
  '90d': '90 days',
  '1y': '1 year',
};

/** A duration field: one of the durations' keys. */
export const durationField = () => z.enum(DURATION_KEYS as [Duration, ...Duration[]], { error: `must be one of ${DURATION_KEYS.join(', ')}` });
/**
 * The longest reason a moderator may give, on every face: what Discord's audit log keeps of a
 * reason (the bot's audit reason is cut to it too).
 */
export const MAX_REASON_LENGTH = 512;
/** A moderator's reason field: at most what Discord's audit log keeps. */
export const reasonField = () => text(MAX_REASON_LENGTH);

/** POST /api/servers/:guildId/moderation: the spec's payload. A timeout needs a duration; a ban may have one (a temporary ban). */
export const ModerationActionInput = z
  .object({
    action: z.enum(MODERATION_ACTIONS, { error: `must be one of ${MODERATION_ACTIONS.join(', ')}` }),
    targetId: Snowflake,
    reason: reasonField(),
    duration: durationField().optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.action === 'timeout' && !input.duration)
      ctx.addIssue({ code: 'custom', path: ['duration'], message: `is required for a timeout (${DURATION_KEYS.join(', ')})` });
    if (input.duration && input.action !== 'timeout' && input.action !== 'ban')
      ctx.addIssue({ code: 'custom', path: ['duration'], message: 'only a timeout or a ban takes a duration' });
  });
export type ModerationActionInput = z.input<typeof ModerationActionInput>;

/** One change to a case after the fact: who changed its reason or its duration, when, from what to what. */
export const CaseEditSchema = z.object({
  at: z.string(),
  byId: z.string(),
  byName: z.string().nullable(),
  field: z.enum(['reason', 'duration']),
  /** The reason, or the duration's key ('permanent' for a ban without one; null: none). */
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type CaseEdit = z.infer<typeof CaseEditSchema>;

/** One case of the moderation log, as the dashboard shows it. */
export const ModerationCaseSchema = z.object({
  id: z.number().int(),
  /** Numbered per server from 1. */
  caseNumber: z.number().int(),
  action: z.enum(CASE_ACTIONS),
  targetId: z.string(),
  /** The member's name and avatar when the server still knows them. */
  targetName: z.string().nullable(),
  targetAvatarUrl: z.string().nullable(),
  moderatorId: z.string(),
  moderatorName: z.string().nullable(),
  reason: z.string().nullable(),
  duration: z.enum(DURATION_KEYS as [Duration, ...Duration[]]).nullable(),
  /** When a temporary ban or a timeout ends. */
  expiresAt: z.string().nullable(),
  /** A temporary ban lifted (by the bot at expiry, or earlier by a moderator). */
  liftedAt: z.string().nullable(),
  source: z.enum(CASE_SOURCES),
  /** Whether the member was told by DM: null when not tried. */
  dmDelivered: z.boolean().nullable(),
  createdAt: z.string(),
  /** A warning pardoned (it no longer counts toward the ladder), and the pardon's case number. */
  pardonedAt: z.string().nullable(),
  pardonCaseNumber: z.number().int().nullable(),
  /** A pardon: the number of the warning it pardons. */
  pardonOf: z.number().int().nullable(),
  /** Changes after the fact, oldest first (the latest few). */
  edits: z.array(CaseEditSchema),
});
export type ModerationCase = z.infer<typeof ModerationCaseSchema>;

/** The filter of Moderation Logs: all, or one action. */
export const LOG_FILTERS = ['all', ...CASE_ACTIONS] as const;
export type LogFilter = (typeof LOG_FILTERS)[number];

/** GET /api/servers/:guildId/moderation/logs?q=&action=&page=&pageSize= (q: reason, target id or name, or #case). */
export const ModerationLogsQuery = pageQuery(100, 20).extend({
  q: z.string({ error: 'must be text' }).trim().max(100, 'must be at most 100 characters').default(''),
  action: z.enum(LOG_FILTERS, { error: `must be one of ${LOG_FILTERS.join(', ')}` }).default('all'),
});
export const ModerationLogsPageSchema = z.object({
  entries: z.array(ModerationCaseSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type ModerationLogsPage = z.infer<typeof ModerationLogsPageSchema>;

/** GET /api/servers/:guildId/moderation/stats: the four cards, counted over the whole log, and open reports. */
export const ModerationStatsSchema = z.object({
  totalActions: z.number().int(),
  bans: z.number().int(),
  warnings: z.number().int(),
  timeouts: z.number().int(),
  kicks: z.number().int(),
  openReports: z.number().int(),
});
export type ModerationStats = z.infer<typeof ModerationStatsSchema>;

/** What an escalation step does. */
export const ESCALATION_ACTIONS = ['timeout', 'kick', 'ban'] as const;

/** One step of the warning ladder: at this many active warnings, the bot takes this action. */
export const EscalationStepSchema = z
  .object({
    warnings: wholeNumber(1, 100),
    action: z.enum(ESCALATION_ACTIONS, { error: 'must be timeout, kick or ban' }),
    duration: durationField().nullable().default(null),
  })
  .strict()
  .superRefine((step, ctx) => {
    if (step.action === 'timeout' && !step.duration) ctx.addIssue({ code: 'custom', path: ['duration'], message: 'is required for a timeout' });
  });
export type EscalationStep = z.infer<typeof EscalationStepSchema>;

/** What an auto moderation rule does to a message that breaks it (the message is deleted in every case). */
export const AUTOMOD_ACTIONS = ['delete', 'warn', 'timeout'] as const;
export type AutomodAction = (typeof AUTOMOD_ACTIONS)[number];

const idList = (max: number) => z.array(Snowflake, { error: 'must be a list of Discord ids' }).max(max, `must have at most ${max} entries`);
const wordList = (max: number, itemMax: number) =>
  z
    .array(z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(itemMax, `must be at most ${itemMax} characters`), {
      error: 'must be a list of text',
    })
    .max(max, `must have at most ${max} entries`);

/** What every rule has: on/off, the action, its timeout duration, and who and where it spares. */
const ruleBase = {
  enabled: flag(),
  action: z.enum(AUTOMOD_ACTIONS, { error: 'must be delete, warn or timeout' }),
  duration: durationField().nullable(),
  exemptRoleIds: idList(50),
  exemptChannelIds: idList(50),
};
const rule = <T extends z.ZodRawShape>(extra: T) =>
  z
    .object({ ...ruleBase, ...extra })
    .strict()
    .superRefine((value, ctx) => {
      const base = value as { action: AutomodAction; duration: Duration | null };
      if (base.action === 'timeout' && !base.duration) ctx.addIssue({ code: 'custom', path: ['duration'], message: 'is required for a timeout' });
    });

/**
 * The range of each number of a rule (the schema's and the dashboard's). A limit allows that many
 * and acts on one more: 3 repeats allows three identical messages and deletes the fourth; 70 %
 * capitals allows 70 % and deletes 71 %. The lowest limits of mentions and repeats are 1, so the
 * strictest setting (one mention or no repeat at all) stays within reach.
 */
export const AUTOMOD_LIMITS = {
  maxMentions: { min: 1, max: 100 },
  maxRepeats: { min: 1, max: 20 },
  maxMessages: { min: 2, max: 100 },
  perSeconds: { min: 1, max: 300 },
  maxPercent: { min: 50, max: 100 },
  minLength: { min: 5, max: 500 },
} as const;
export type AutomodLimit = keyof typeof AUTOMOD_LIMITS;
const limit = (key: AutomodLimit) => wholeNumber(AUTOMOD_LIMITS[key].min, AUTOMOD_LIMITS[key].max);

/** The auto moderation rules, each with its own settings. */
export const AutomodRulesSchema = z
  .object({
    invites: rule({}),
    links: rule({ allowedDomains: wordList(100, 253) }),
    mentions: rule({ maxMentions: limit('maxMentions') }),
    repeats: rule({ maxRepeats: limit('maxRepeats') }),
    rate: rule({ maxMessages: limit('maxMessages'), perSeconds: limit('perSeconds') }),
    words: rule({ words: wordList(500, 100) }),
    caps: rule({ maxPercent: limit('maxPercent'), minLength: limit('minLength') }),
  })
  .strict();
export type AutomodRules = z.infer<typeof AutomodRulesSchema>;
export type AutomodRuleName = keyof AutomodRules;

/** Each rule's name as a person reads it: the reason of its cases. */
export const AUTOMOD_RULE_NAMES: Record<AutomodRuleName, string> = {
  invites: 'Invite links',
  links: 'Links not on the allow list',
  mentions: 'Mass mentions',
  repeats: 'Repeated messages',
  rate: 'Message rate',
  words: 'Blocked words',
  caps: 'Excessive capitals',
};

const off = { enabled: false, action: 'delete' as AutomodAction, duration: null, exemptRoleIds: [], exemptChannelIds: [] };
/** Every rule off until an admin turns it on; the limits are common defaults. */
export const AUTOMOD_DEFAULTS: AutomodRules = {
  invites: { ...off },
  links: { ...off, allowedDomains: [] },
  mentions: { ...off, maxMentions: 5 },
  repeats: { ...off, maxRepeats: 3 },
  rate: { ...off, maxMessages: 5, perSeconds: 5 },
  words: { ...off, words: [] },
  caps: { ...off, maxPercent: 70, minLength: 10 },
};

/** Which actions tell the member by DM before they happen. */
export const ModerationDmSchema = z.object({ ban: flag(), kick: flag(), timeout: flag(), warn: flag() }).strict();

/** The longest intro of the appeal page. */
export const APPEAL_INTRO_MAX = 1000;

/** The moderation slice of a guild's settings. */
export const ModerationSettingsSchema = z.object({
  /** DM the member the action and reason before it happens. */
  moderationDm: ModerationDmSchema,
  /** A warning counts as active this many days; 0 keeps it forever. */
  warningExpiryDays: wholeNumber(0, 3650),
  /** The warning ladder, applied when a member reaches a step's count of active warnings. */
  escalation: z
    .array(EscalationStepSchema, { error: 'must be a list of steps' })
    .max(10, 'must have at most 10 steps')
    .superRefine((steps, ctx) => {
      const seen = new Set<number>();
      steps.forEach((step, index) => {
        if (seen.has(step.warnings)) ctx.addIssue({ code: 'custom', path: [index, 'warnings'], message: `has another step at ${step.warnings} warnings` });
        seen.add(step.warnings);
      });
    }),
  automodRules: AutomodRulesSchema,
  /**
   * Auto moderation checks the owner and members with Administrator or Manage Server too. Off by
   * default: they are spared by every rule, as Discord's own AutoMod spares them. One switch for
   * every rule (rules spare further roles by their exempt roles); a key of its own beside
   * automodRules, so guilds stored before it read the default without a migration.
   */
  automodIncludeStaff: flag(),
  // Ban appeals (see src/shared/appeals.ts): the ban's DM links to the appeal page when on.
  /** Banned members may appeal from the dashboard; the ban's DM carries the link. */
  appealsEnabled: flag(),
  /** The server's words at the top of the appeal page (what to write, how long a decision takes). */
  appealIntro: optionalText(APPEAL_INTRO_MAX),
});
export type ModerationSettings = z.infer<typeof ModerationSettingsSchema>;

export const MODERATION_DEFAULTS: ModerationSettings = {
  moderationDm: { ban: true, kick: true, timeout: true, warn: true },
  warningExpiryDays: 30,
  escalation: [],
  automodRules: AUTOMOD_DEFAULTS,
  automodIncludeStaff: false,
  appealsEnabled: true,
  appealIntro: null,
};

/** How the dashboard words the staff switch of auto moderation. */
export const AUTOMOD_STAFF_TEXT = {
  label: 'Check staff too',
  spared: 'Members with Administrator or Manage Server, and the owner, are not checked.',
  included: 'Members with Administrator or Manage Server, and the owner, are checked like everyone else.',
} as const;

/** Spec sections 2, 5 and 8's words. */
export const MODERATION_MESSAGES = {
  missing: { title: 'Missing Information', description: 'Please provide both user ID and reason.' },
  failedTitle: 'Action Failed',
  failedFallback: 'Failed to execute moderation action.',
  completedTitle: 'Moderation Action Completed',
  completed: (action: string) => `Successfully executed ${action} action.`,
  noLogs: 'No moderation logs yet',
  noMatches: 'No matching logs found',
} as const;

/** The spec's label of a user in the log: '#' and the last 4 characters of the id. */
export const lastFour = (id: string) => id.slice(-4);
