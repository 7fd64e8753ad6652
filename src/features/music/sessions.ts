// What a server's player was doing, saved so that after a restart the bot rejoins its voice
// channel and resumes the queue (a file at its position, a stream live). One row per server while
// it plays, removed when the player leaves. A row that no longer reads is dropped with a warning.
import * as z from 'zod';
import type { Services } from '../../core/services';
import { LOOP_MODES } from '../../shared/music-player';
import type { QueuedTrack } from './queue';

const TrackSchema = z.object({
  id: z.string(),
  title: z.string(),
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('library'), trackId: z.string() }),
    z.object({ kind: z.literal('attachment'), url: z.string(), fileName: z.string() }),
    z.object({ kind: z.literal('stream'), url: z.string(), stationName: z.string().nullable() }),
  ]),
  durationSeconds: z.number().nullable(),
  requestedBy: z.string(),
  requestedByName: z.string(),
});

const SessionStateSchema = z.object({
  current: TrackSchema.nullable(),
  upcoming: z.array(TrackSchema),
  loop: z.enum(LOOP_MODES),
  volume: z.number().int().min(1).max(150),
  paused: z.boolean(),
  positionSeconds: z.number().min(0),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

/** A saved session. */
export interface Session {
  voiceChannelId: string;
  textChannelId: string | null;
  state: SessionState;
}

/** Saves (or replaces) the server's session. */
export async function saveSession(services: Services, guildId: string, session: Session): Promise<void> {
  const scope = services.store.guild(guildId).MusicSession;
  const values = {
    voiceChannelId: session.voiceChannelId,
    textChannelId: session.textChannelId,
    state: JSON.stringify(session.state),
    updatedAt: services.clock.now(),
  };
  const updated = await scope.update(values, { where: {} });
  if (updated === 0) await scope.create(values);
}

/** Forgets the server's session (the player left). */
export async function deleteSession(services: Services, guildId: string): Promise<void> {
  await services.store.guild(guildId).MusicSession.destroy();
}

/** The server's saved session, if any that still reads. */
export async function loadSession(services: Services, guildId: string): Promise<Session | null> {
  const row = await services.store.guild(guildId).MusicSession.findOne();
  if (!row) return null;
  let parsed: ReturnType<typeof SessionStateSchema.safeParse>;
  try {
    parsed = SessionStateSchema.safeParse(JSON.parse(row.state));
  } catch {
    parsed = SessionStateSchema.safeParse(undefined);
  }
  if (!parsed.success) {
    services.logger.warn({ guildId }, 'music: a saved player session does not read; it is dropped');
    await deleteSession(services, guildId);
    return null;
  }
  return { voiceChannelId: row.voiceChannelId, textChannelId: row.textChannelId, state: parsed.data };
}

/** The tracks of a state, in the queue's type. */
export function sessionTracks(state: SessionState): { current: QueuedTrack | null; upcoming: QueuedTrack[] } {
  return { current: state.current, upcoming: state.upcoming };
}
