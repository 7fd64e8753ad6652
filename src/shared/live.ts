// The dashboard's live updates (GET /api/servers/:guildId/events, Server-Sent Events): small
// "what changed" notices; the dashboard reads the changed data again through its usual routes.
import * as z from 'zod';

/** What a notice can say changed in a server. */
export const LIVE_TOPICS = ['overview', 'moderation-log', 'reports', 'reaction-roles', 'announcements', 'music', 'settings'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** The data of a `change` event: which part of the server changed. */
export const LiveNoticeSchema = z.object({ topic: z.enum(LIVE_TOPICS) });
export type LiveNotice = z.infer<typeof LiveNoticeSchema>;

/** The data of an `ended` event, sent just before the server closes the stream for good. */
export const LiveEndSchema = z.object({ reason: z.enum(['access', 'signed-out', 'shutdown']) });
export type LiveEnd = z.infer<typeof LiveEndSchema>;

/** The stream's event names. */
export const LIVE_EVENTS = { change: 'change', ended: 'ended' } as const;

/** How long a browser waits before reconnecting a dropped stream (the `retry` field). */
export const LIVE_RETRY_MS = 2000;

/** How often the dashboard reads a server's pages again when it cannot have the stream (no EventSource, repeated failures). */
export const LIVE_POLL_MS = 10_000;
