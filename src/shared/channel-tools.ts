// Channel tools of moderation (issue 24, point 2): purge, slowmode, lock and unlock of one
// channel. The schemas of POST /api/servers/:guildId/moderation/channels/:channelId/<tool>, the
// limits Discord sets, and what the tools answer; the commands and the dashboard read them too.
import * as z from 'zod';
import { Snowflake } from './auth';
import { flag, wholeNumber } from './fields';

/** Discord's bulk delete: at most 100 messages per call, none older than 14 days. */
export const PURGE_LIMITS = { minCount: 1, maxCount: 100, maxAgeMs: 14 * 86_400_000, maxContains: 100 } as const;
/** Discord's slowmode: 0 (off) to 21600 seconds (6 hours). */
export const SLOWMODE_LIMITS = { min: 0, max: 21_600 } as const;

/** The channel a tool acts on (the path's :channelId). */
export const ChannelParams = z.object({ channelId: Snowflake });

/** Which messages a purge deletes among the channel's latest: all of them, or those that pass every filter given. */
export const PurgeInput = z
  .object({
    count: wholeNumber(PURGE_LIMITS.minCount, PURGE_LIMITS.maxCount),
    userId: Snowflake.optional(),
    contains: z
      .string({ error: 'must be text' })
      .trim()
      .min(1, 'must not be empty')
      .max(PURGE_LIMITS.maxContains, `must be at most ${PURGE_LIMITS.maxContains} characters`)
      .optional(),
    bots: flag().optional(),
    links: flag().optional(),
  })
  .strict();
export type PurgeInput = z.input<typeof PurgeInput>;
export type PurgeFilters = Omit<z.output<typeof PurgeInput>, 'count'>;

/** POST .../slowmode: seconds between one member's messages. */
export const SlowmodeInput = z.object({ seconds: wholeNumber(SLOWMODE_LIMITS.min, SLOWMODE_LIMITS.max) }).strict();
export type SlowmodeInput = z.input<typeof SlowmodeInput>;

/** A channel as the tools see it: its slowmode and whether @everyone may send messages there. */
export const ChannelToolStateSchema = z.object({
  channelId: z.string(),
  name: z.string(),
  slowmodeSeconds: z.number().int(),
  /** @everyone's Send Messages is denied in the channel. */
  locked: z.boolean(),
});
export type ChannelToolState = z.infer<typeof ChannelToolStateSchema>;

/** What a tool answers: the sentence to show, the channel after it, and for a purge how many went. */
export const ChannelToolResultSchema = z.object({
  message: z.string(),
  state: ChannelToolStateSchema,
  deleted: z.number().int().optional(),
  /** Matching messages older than 14 days, which Discord does not bulk delete. */
  skipped: z.number().int().optional(),
  /** The case recorded, or null when nothing changed. */
  caseNumber: z.number().int().nullable(),
});
export type ChannelToolResult = z.infer<typeof ChannelToolResultSchema>;

/** "1 second", "2 minutes", "6 hours", "off": a slowmode as people read it. */
export function slowmodeLabel(seconds: number): string {
  if (seconds === 0) return 'off';
  const [count, unit] = seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** How a purge's filters read in the log and the reply: "from alice, containing "spam", from bots, with links". */
export function purgeFiltersLabel(filters: PurgeFilters, userName?: string | null): string {
  const parts = [
    ...(filters.userId ? [`from ${userName ?? filters.userId}`] : []),
    ...(filters.contains ? [`containing “${filters.contains}”`] : []),
    ...(filters.bots ? ['from bots'] : []),
    ...(filters.links ? ['with links'] : []),
  ];
  return parts.join(', ');
}
