// Cases as living records (issue 24, point 1): editing a case's reason or duration after the fact,
// pardoning a warning, and a member's record (their cases, notes, active warnings and the next step
// of the warning ladder). Shared by the routes, the commands and the dashboard.
import * as z from 'zod';
import { Snowflake } from './auth';
import { rowId } from './fields';
import { DURATION_KEYS, DURATION_LABELS, ModerationCaseSchema, reasonField, type Duration, type EscalationStep, type ModerationCase } from './moderation';

/** How many edits a case keeps (the latest). */
export const MAX_CASE_EDITS = 10;

/** The duration of a ban that has none. */
export const PERMANENT = 'permanent';
/** A new duration: one of the durations, or 'permanent' (bans only). */
export const CASE_DURATIONS = [PERMANENT, ...DURATION_KEYS] as const;
export type CaseDuration = Duration | typeof PERMANENT;

/** How a case's duration reads: '1 hour', 'permanent', or 'as set in Discord' (a native timeout's own length). */
export const caseDurationLabel = (duration: string | null): string =>
  duration && duration in DURATION_LABELS ? DURATION_LABELS[duration as Duration] : duration === PERMANENT ? PERMANENT : 'as set in Discord';

/** The path of one case: /moderation/cases/:caseNumber. */
export const CaseParams = z.object({ caseNumber: rowId('must be a case number') });

/** The path of one member's record: /moderation/members/:userId. */
export const MemberParams = z.object({ userId: Snowflake });

/**
 * PATCH /api/servers/:guildId/moderation/cases/:caseNumber: a new reason, a new duration, or both.
 * A new duration counts from the case's start: a 1-day ban changed to 1 week ends a week after it began.
 */
export const EditCaseInput = z
  .object({
    reason: reasonField().optional(),
    duration: z.enum(CASE_DURATIONS, { error: `must be one of ${CASE_DURATIONS.join(', ')}` }).optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.reason === undefined && input.duration === undefined)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required when the duration is not changed' });
  });
export type EditCaseInput = z.input<typeof EditCaseInput>;

/** POST /api/servers/:guildId/moderation/cases/:caseNumber/pardon: why the warning is pardoned. */
export const PardonInput = z.object({ reason: reasonField() }).strict();
export type PardonInput = z.input<typeof PardonInput>;

/** The warning ladder as it stands for one member. */
export const LadderOutlookSchema = z.object({
  /** The step the member's next warning would take, or null. */
  next: z.object({ warnings: z.number().int(), action: z.enum(['timeout', 'kick', 'ban']), duration: z.string().nullable() }).nullable(),
  /** In words: 'Next warning: 1 hour timeout'. */
  text: z.string(),
});
export type LadderOutlook = z.infer<typeof LadderOutlookSchema>;

/** GET /api/servers/:guildId/moderation/members/:userId: one member's record. */
export const MemberRecordSchema = z.object({
  userId: z.string(),
  /** Their name and avatar when the server (or Discord) still knows them. */
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  /** Whether they are in the server now. */
  inServer: z.boolean(),
  /** Every case about them, newest first (notes included). */
  cases: z.array(ModerationCaseSchema),
  /** How many cases there are in all (the list holds the latest MEMBER_CASES_LIMIT). */
  totalCases: z.number().int(),
  activeWarnings: z.number().int(),
  ladder: LadderOutlookSchema,
});
export type MemberRecord = z.infer<typeof MemberRecordSchema>;

/** The most cases a member's record lists. */
export const MEMBER_CASES_LIMIT = 200;

/** A step as words: '1 hour timeout', 'kick', 'permanent ban'. */
export function stepWords(step: Pick<EscalationStep, 'action' | 'duration'>): string {
  if (step.action === 'kick') return 'kick';
  const length = step.duration ? DURATION_LABELS[step.duration] : step.action === 'ban' ? 'permanent' : '';
  return `${length} ${step.action === 'ban' ? 'ban' : 'timeout'}`.trim();
}

/**
 * What the member's next warning does. The ladder acts when the active warnings reach a step's
 * count exactly, so the next warning takes the step at active + 1; a later step is named too.
 */
export function ladderOutlook(escalation: readonly EscalationStep[], active: number): LadderOutlook {
  if (escalation.length === 0) return { next: null, text: 'No warning ladder is set up: warnings do not lead to other actions.' };
  const next = escalation.find((step) => step.warnings === active + 1) ?? null;
  if (next) return { next, text: `Next warning: ${stepWords(next)}` };
  const later = [...escalation].filter((step) => step.warnings > active + 1).sort((a, b) => a.warnings - b.warnings)[0];
  if (later) return { next: null, text: `Next warning: no step. At ${later.warnings} active warnings: ${stepWords(later)}` };
  return { next: null, text: 'Next warning: no further step on the ladder.' };
}

/** Whether a case is a timeout or a ban, the cases whose duration can change. */
export const takesDuration = (view: Pick<ModerationCase, 'action'>) => view.action === 'ban' || view.action === 'timeout';
