// Music playback as the dashboard sees and drives it (issue 23): what plays now in a server, the
// queue after it, and the controls (pause, resume, skip, stop, volume, loop, shuffle, reorder,
// remove, queue a library track or a station). The slash commands act through the same functions.
import * as z from 'zod';
import { optionalId, rowId, wholeNumber } from './fields';

/** A row id in a JSON body: a number, or written as in a path ("12"). */
const bodyRowId = (message: string) => z.union([z.number().int().min(1).max(2_147_483_647), rowId(message)], { error: message });

export const LOOP_MODES = ['off', 'track', 'queue'] as const;
export type LoopMode = (typeof LOOP_MODES)[number];

/** Where a queued track's audio comes from. */
export const TRACK_KINDS = ['library', 'attachment', 'stream'] as const;

/** A track in the queue (or playing): `id` is the queue entry's own, stable while it waits. */
export const PlayerTrackSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(TRACK_KINDS),
  /** Null for a live stream. */
  durationSeconds: z.number().nullable(),
  requestedBy: z.object({ id: z.string(), name: z.string() }),
});
export type PlayerTrack = z.infer<typeof PlayerTrackSchema>;

/**
 * GET /music/player: the server's player. `positionSeconds` is how far the current track has played
 * at `at` (an ISO time of the server's clock): while `status` is playing the page adds the time since.
 */
export const PlayerViewSchema = z.object({
  /** idle: not in a voice channel, or nothing queued; connecting: joining or reconnecting. */
  status: z.enum(['idle', 'connecting', 'playing', 'paused']),
  /** The voice channel the bot plays in, if any. */
  channel: z.object({ id: z.string(), name: z.string() }).nullable(),
  current: PlayerTrackSchema.nullable(),
  positionSeconds: z.number(),
  at: z.string(),
  /** Percent, 1 to 150. */
  volume: z.number().int(),
  loop: z.enum(LOOP_MODES),
  /** The tracks after the current one, in order (position 1 first). */
  queue: z.array(PlayerTrackSchema),
  /** Whether the feature is on (Bot Settings, "Music commands"). */
  enabled: z.boolean(),
});
export type PlayerView = z.infer<typeof PlayerViewSchema>;

/** PUT /music/player/volume */
export const VolumeInput = z.object({ volume: wholeNumber(1, 150) }).strict();

/** PUT /music/player/loop */
export const LoopInput = z.object({ mode: z.enum(LOOP_MODES, { error: 'must be off, track or queue' }) }).strict();

/** POST /music/queue/move: the entry to move and its new place among the upcoming tracks (1 = next). */
export const QueueMoveInput = z.object({ entryId: z.string({ error: 'must be a queue entry id' }).min(1).max(40), to: wholeNumber(1, 500) }).strict();

/**
 * POST /music/queue: queue a library track or a saved station from the dashboard. When the bot is in
 * no voice channel yet, `channelId` names the voice channel to join.
 */
export const QueueAddInput = z
  .object({
    trackId: bodyRowId('must be a track id').optional(),
    stationId: bodyRowId('must be a station id').optional(),
    channelId: optionalId().optional(),
  })
  .strict()
  .refine((value) => (value.trackId === undefined) !== (value.stationId === undefined), {
    message: 'Pick a library track or a station to play.',
    path: ['trackId'],
  });
export type QueueAddInput = z.input<typeof QueueAddInput>;
