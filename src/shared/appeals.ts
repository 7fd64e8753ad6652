// Ban appeals (issue 24, point 6): a banned member appeals their ban from the dashboard's appeal
// page, moderators accept (the ban is lifted) or deny it with a reason. The request and response
// schemas, limits and the sentences every face shows, shared by the routes, the bot and the dashboard.
import * as z from 'zod';
import { Snowflake } from './auth';
import { optionalText, pageQuery } from './fields';
import { MAX_REASON_LENGTH, reasonField } from './moderation';

/** How long an appeal's text may be: long enough to say something, short enough to read. */
export const APPEAL_TEXT_LIMITS = { min: 20, max: 2000 } as const;

/** After a denial, the member may appeal the same ban again once this long has passed (7 days). */
export const APPEAL_RETRY_MS = 7 * 86_400_000;

/** What became of an appeal. */
export const APPEAL_STATUSES = ['open', 'accepted', 'denied'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** The sentences of appeals, on every face. */
export const APPEAL_MESSAGES = {
  notYours: 'This appeal link is for the member who was banned.',
  alreadyOpen: 'You have already appealed this ban; the moderators have not decided yet.',
  disabled: 'This server does not take ban appeals.',
  noBan: 'You have no ban in this server to appeal.',
  lifted: 'Your ban has been lifted already, so there is nothing to appeal.',
  accepted: 'Your appeal was accepted and your ban was lifted.',
  tooSoon: (days: number) => `Your appeal was denied. You can appeal this ban again in ${days} ${days === 1 ? 'day' : 'days'}.`,
  notOpen: (status: string) => `That appeal was already ${status}.`,
  liftedMeanwhile: 'That ban was lifted already, so there is nothing to accept. Deny the appeal to close it with a reason.',
  noSuchAppeal: 'That appeal does not exist in this server.',
  needsBanMembers: 'You need the Ban Members permission to decide ban appeals.',
} as const;

/** The dashboard page where a member appeals their ban in a server (the link in the ban's DM). */
export const appealPath = (guildId: string, userId: string) => `/appeal/${guildId}/${userId}`;

/** The path parameters of the member's appeal routes. */
export const AppealParams = z.object({ guildId: Snowflake, userId: Snowflake });

/** POST /api/appeals/:guildId/:userId: the member's appeal. */
export const AppealInput = z
  .object({
    text: z
      .string({ error: 'must be text' })
      .trim()
      .min(APPEAL_TEXT_LIMITS.min, `must be at least ${APPEAL_TEXT_LIMITS.min} characters`)
      .max(APPEAL_TEXT_LIMITS.max, `must be at most ${APPEAL_TEXT_LIMITS.max} characters`),
  })
  .strict();
export type AppealInput = z.input<typeof AppealInput>;

/** POST /api/servers/:guildId/moderation/appeals/:id/accept: an optional reason (the unban case's). */
export const AcceptAppealInput = z.object({ reason: optionalText(MAX_REASON_LENGTH).optional() }).strict();
export type AcceptAppealInput = z.input<typeof AcceptAppealInput>;

/** POST /api/servers/:guildId/moderation/appeals/:id/deny: the reason is required (the member is told it). */
export const DenyAppealInput = z.object({ reason: reasonField() }).strict();
export type DenyAppealInput = z.input<typeof DenyAppealInput>;

/** GET /api/servers/:guildId/moderation/appeals?status=&page= */
export const AppealsQuery = pageQuery(100, 20).extend({
  status: z.enum(['all', ...APPEAL_STATUSES], { error: 'must be all, open, accepted or denied' }).default('open'),
});

/** One appeal as moderators see it. */
export const AppealSchema = z.object({
  id: z.number().int(),
  /** The ban case appealed. */
  caseNumber: z.number().int(),
  caseReason: z.string().nullable(),
  bannedAt: z.string().nullable(),
  /** False once the ban was lifted (expired, or unbanned by any means): an open appeal can then only be denied. */
  banInForce: z.boolean(),
  userId: z.string(),
  userName: z.string().nullable(),
  text: z.string(),
  status: z.enum(APPEAL_STATUSES),
  decidedById: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** The unban case an accepted appeal took. */
  unbanCaseNumber: z.number().int().nullable(),
  /** Whether the member was told the decision by DM: null before a decision. */
  dmDelivered: z.boolean().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type Appeal = z.infer<typeof AppealSchema>;

export const AppealsPageSchema = z.object({ entries: z.array(AppealSchema), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() });
export type AppealsPage = z.infer<typeof AppealsPageSchema>;

/** GET /api/appeals/:guildId/:userId: what the banned member's appeal page shows. */
export const MemberAppealViewSchema = z.object({
  guildId: z.string(),
  guildName: z.string(),
  guildIconUrl: z.string().nullable(),
  caseNumber: z.number().int(),
  reason: z.string().nullable(),
  bannedAt: z.string(),
  /** The server's words above the form (moderation settings), if any. */
  intro: z.string().nullable(),
  /** The latest appeal of this ban, if any. */
  appeal: z
    .object({
      id: z.number().int(),
      status: z.enum(APPEAL_STATUSES),
      text: z.string(),
      createdAt: z.string(),
      decidedAt: z.string().nullable(),
      decisionReason: z.string().nullable(),
    })
    .nullable(),
  /** Whether the form is offered; when not, `notice` says why. */
  canAppeal: z.boolean(),
  notice: z.string().nullable(),
});
export type MemberAppealView = z.infer<typeof MemberAppealViewSchema>;
