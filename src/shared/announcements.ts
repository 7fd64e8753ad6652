import * as z from 'zod';
import { Snowflake, SNOWFLAKE_MESSAGE } from './auth';
import { pageQuery } from './fields';
import { baseVersion } from './versions';
import { RecurrenceSchema } from './recurrence';

/** Spec section 9's priorities; normal by default. */
export const ANNOUNCEMENT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];

/** What an announcement can be: sent, waiting for its time, failed, cancelled before it went out, or missed (the bot was down too long). */
export const ANNOUNCEMENT_STATUSES = ['scheduled', 'sent', 'failed', 'cancelled', 'missed'] as const;
export type AnnouncementStatusName = (typeof ANNOUNCEMENT_STATUSES)[number];

/** How each priority looks: the embed's colour and the banner above the title (none for normal). */
export const PRIORITY_STYLE: Record<AnnouncementPriority, { label: string; color: number; banner: string | null }> = {
  low: { label: 'Low', color: 0x95a5a6, banner: 'Low priority' },
  normal: { label: 'Normal', color: 0x5865f2, banner: null },
  high: { label: 'High', color: 0xf39c12, banner: 'High priority' },
  urgent: { label: 'Urgent', color: 0xe74c3c, banner: '⚠️ Urgent' },
};

/** The embed an announcement is posted as (the dashboard's live preview draws the same). */
export function announcementEmbed(input: { title: string; message: string; priority: AnnouncementPriority }) {
  const style = PRIORITY_STYLE[input.priority];
  return {
    title: input.title,
    description: input.message,
    color: style.color,
    ...(style.banner ? { author: { name: style.banner } } : {}),
  };
}

/** A scheduled announcement missed by less than this is sent late (and marked so); older ones are marked missed. */
export const LATE_SEND_WINDOW_MS = 60 * 60_000;

/** Spec section 8's toasts, and the words of the history. */
export const ANNOUNCEMENT_MESSAGES = {
  sent: { title: 'Announcement sent', description: 'Your announcement has been successfully sent to the channel.' },
  failed: { title: 'Error', description: 'Failed to send announcement. Please try again.' },
  scheduled: 'Announcement scheduled',
  updated: 'Announcement updated',
  cancelled: 'Announcement cancelled',
  messageEdited: 'Message edited in Discord',
  empty: 'No announcements sent yet',
} as const;

const title = z.string({ error: 'is required' }).trim().min(1, 'is required').max(256, 'must be at most 256 characters');
const message = z.string({ error: 'is required' }).trim().min(1, 'is required').max(4000, 'must be at most 4000 characters');
const priority = z.enum(ANNOUNCEMENT_PRIORITIES, { error: `must be one of ${ANNOUNCEMENT_PRIORITIES.join(', ')}` });
/** An instant with its time zone, as the browser sends the admin's local time. */
const scheduleTime = z.iso.datetime({ offset: true, error: 'must be a date and time with its time zone' }).nullable();
const mentionRoleId = z.union([Snowflake, z.literal(''), z.null()], { error: SNOWFLAKE_MESSAGE }).transform((value) => value || null);

/** POST /api/servers/:guildId/announcements: Send Now (no scheduleTime) or Schedule. */
export const AnnouncementInput = z
  .object({
    title,
    message,
    channelId: z.string({ error: 'is required' }).trim().min(1, 'is required').pipe(Snowflake),
    priority: priority.default('normal'),
    scheduleTime: scheduleTime.default(null),
    /** An optional role to ping with it; nobody else is pinged. */
    mentionRoleId: mentionRoleId.default(null),
    /** Repeats by this rule (its first send is the rule's next occurrence); null sends once. */
    recurrence: RecurrenceSchema.nullable().default(null),
  })
  .strict();
export type AnnouncementInput = z.input<typeof AnnouncementInput>;

/** PATCH /api/servers/:guildId/announcements/:id: change a scheduled one before it is sent. */
export const AnnouncementPatch = z
  .object({
    title: title.optional(),
    message: message.optional(),
    channelId: Snowflake.optional(),
    priority: priority.optional(),
    scheduleTime: z.iso.datetime({ offset: true, error: 'must be a date and time with its time zone' }).optional(),
    mentionRoleId: mentionRoleId.optional(),
    /** A new rule for a repeating one (its next send is recomputed; the sends so far count toward its count). */
    recurrence: RecurrenceSchema.optional(),
    /** The version of the announcement the page loaded (see src/shared/versions). */
    baseVersion: baseVersion(),
  })
  .strict();
export type AnnouncementPatch = z.input<typeof AnnouncementPatch>;

/** PATCH /api/servers/:guildId/announcements/:id/message: edit the message already sent, in place (it keeps its id, pins and reactions). */
export const AnnouncementMessageEdit = z
  .object({
    title: title.optional(),
    message: message.optional(),
    priority: priority.optional(),
    baseVersion: baseVersion(),
  })
  .strict();
export type AnnouncementMessageEdit = z.input<typeof AnnouncementMessageEdit>;

/** An announcement of Recent Announcements. */
export const AnnouncementSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  channelId: z.string(),
  channelName: z.string().nullable(),
  priority: z.enum(ANNOUNCEMENT_PRIORITIES),
  status: z.enum(ANNOUNCEMENT_STATUSES),
  scheduleTime: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** Sent after its time because the bot was down. */
  late: z.boolean(),
  error: z.string().nullable(),
  messageUrl: z.string().nullable(),
  mentionRoleId: z.string().nullable(),
  createdBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  createdAt: z.string(),
  /** Counts edits: sent back with the next change. */
  version: z.number().int(),
  /** A recurring one's rule (it stays scheduled, scheduleTime at its next occurrence, until it ends). */
  recurrence: RecurrenceSchema.nullable(),
  /** How many times it went out. */
  sendCount: z.number().int(),
  /** Its latest message can be edited in place. */
  canEditMessage: z.boolean(),
  /** When that message was last edited. */
  editedAt: z.string().nullable(),
});
export type AnnouncementView = z.infer<typeof AnnouncementSchema>;

/** GET /api/servers/:guildId/announcements?page=&pageSize= */
export const AnnouncementQuery = pageQuery(50, 10);
export const AnnouncementPageSchema = z.object({
  entries: z.array(AnnouncementSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AnnouncementPage = z.infer<typeof AnnouncementPageSchema>;
