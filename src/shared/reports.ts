// Members' reports (spec section 8): a report's record, the moderators' list and resolution, and
// what a member is told when they may not report. Shared by the routes, the bot and the dashboard.
import * as z from 'zod';
import { pageQuery } from './fields';
import { durationField, reasonField } from './moderation';

/** What became of a report. */
export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A member's report of another member (or of one message). */
export const ReportSchema = z.object({
  id: z.number().int(),
  reporterId: z.string(),
  reporterName: z.string().nullable(),
  targetId: z.string(),
  targetName: z.string().nullable(),
  reason: z.string(),
  /** The reported message: its link and its text when reported. */
  messageUrl: z.string().nullable(),
  content: z.string().nullable(),
  status: z.enum(REPORT_STATUSES),
  /** The case a resolution took, if any. */
  caseNumber: z.number().int().nullable(),
  resolvedById: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Report = z.infer<typeof ReportSchema>;

/** GET /api/servers/:guildId/moderation/reports?status=&page= */
export const ReportsQuery = pageQuery(100, 20).extend({
  status: z.enum(['all', ...REPORT_STATUSES], { error: 'must be all, open, resolved or dismissed' }).default('open'),
});
export const ReportsPageSchema = z.object({ entries: z.array(ReportSchema), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
export type ReportsPage = z.infer<typeof ReportsPageSchema>;

/** POST /api/servers/:guildId/moderation/reports/:id/resolve: optionally with an action on the reported member. */
export const ResolveReportInput = z
  .object({
    action: z
      .object({
        action: z.enum(['ban', 'kick', 'timeout', 'warn'], { error: 'must be ban, kick, timeout or warn' }),
        reason: reasonField(),
        duration: durationField().optional(),
      })
      .strict()
      .superRefine((input, ctx) => {
        if (input.action === 'timeout' && !input.duration) ctx.addIssue({ code: 'custom', path: ['duration'], message: 'is required for a timeout' });
        if (input.duration && input.action !== 'timeout' && input.action !== 'ban')
          ctx.addIssue({ code: 'custom', path: ['duration'], message: 'only a timeout or a ban takes a duration' });
      })
      .optional(),
  })
  .strict();
export type ResolveReportInput = z.input<typeof ResolveReportInput>;

/**
 * How often one member may report the same member: once per this window (10 minutes), counted from
 * the stored reports, across /report and Report message. Other members and other targets are not held back.
 */
export const REPORT_REPEAT_WINDOW_MS = 10 * 60_000;

/** What a member who reports themselves (or their own message) is told, on every face. */
export const REPORT_SELF_MESSAGES = {
  member: 'You cannot report yourself.',
  message: 'You cannot report your own message.',
} as const;

/** "7 minutes", "1 minute": a wait of at least a minute, rounded up. */
const minutes = (ms: number) => {
  const count = Math.max(1, Math.ceil(ms / 60_000));
  return `${count} ${count === 1 ? 'minute' : 'minutes'}`;
};

/** What a member who reports the same member again too soon is told. */
export const REPORT_REPEAT_MESSAGES = {
  stillOpen: (name: string, waitMs: number) =>
    `Your earlier report of ${name} is still open, and the moderators have it. You can report ${name} again in ${minutes(waitMs)}.`,
  recent: (name: string, waitMs: number) => `You reported ${name} a few minutes ago. You can report ${name} again in ${minutes(waitMs)}.`,
} as const;
