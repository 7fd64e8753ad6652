// The Music page's reads and writes: the player (polled while the page is visible), the library,
// the stations and the music settings. Keys nest under the guild, so a guild-wide refresh reaches them.
import { queryOptions } from '@tanstack/react-query';
import { PlayerViewSchema, type LoopMode, type PlayerView, type QueueAddInput } from '../../../src/shared/music-player';
import {
  LibrarySchema,
  LibraryTrackSchema,
  MusicSettingsViewSchema,
  StationSchema,
  type MusicSettingsUpdate,
  type StationInput,
} from '../../../src/shared/music';
import { apiRequest } from '../../api/client';
import { guildApi, guildKeys, readGuild } from '../../api/guild';

/** How often the player is read again while the page is visible. */
export const PLAYER_POLL_MS = 3000;

/** The page's query keys. */
export const musicKeys = {
  all: (guildId: string) => [...guildKeys.all(guildId), 'music'] as const,
  player: (guildId: string) => [...guildKeys.all(guildId), 'music', 'player'] as const,
  library: (guildId: string) => [...guildKeys.all(guildId), 'music', 'library'] as const,
  stations: (guildId: string) => [...guildKeys.all(guildId), 'music', 'stations'] as const,
  settings: (guildId: string) => [...guildKeys.all(guildId), 'music', 'settings'] as const,
};

/**
 * What plays now and the queue. Read every few seconds: the player changes without anyone on the
 * page (tracks end, members use /play). react-query stops the interval while the tab is hidden.
 */
export const playerQuery = (guildId: string) =>
  queryOptions({
    queryKey: musicKeys.player(guildId),
    queryFn: readGuild(guildId, '/music/player', PlayerViewSchema),
    refetchInterval: PLAYER_POLL_MS,
    refetchIntervalInBackground: false,
  });

/** The library's tracks, newest first, with the quota. */
export const libraryQuery = (guildId: string) =>
  queryOptions({ queryKey: musicKeys.library(guildId), queryFn: readGuild(guildId, '/music/library', LibrarySchema) });

/** The saved radio stations. */
export const stationsQuery = (guildId: string) =>
  queryOptions({ queryKey: musicKeys.stations(guildId), queryFn: readGuild(guildId, '/music/stations', StationSchema.array()) });

/** The music settings and the version to save over. */
export const musicSettingsQuery = (guildId: string) =>
  queryOptions({ queryKey: musicKeys.settings(guildId), queryFn: readGuild(guildId, '/music/settings', MusicSettingsViewSchema) });

const music = (guildId: string) => `${guildApi(guildId)}/music`;

/** A control of the player: every one answers the player as it is now. */
async function playerCall(guildId: string, method: string, path: string, body?: unknown): Promise<PlayerView> {
  return PlayerViewSchema.parse(await apiRequest(method, `${music(guildId)}${path}`, body));
}

/** The player's controls. */
export const playerControls = {
  pause: (guildId: string) => playerCall(guildId, 'POST', '/player/pause'),
  resume: (guildId: string) => playerCall(guildId, 'POST', '/player/resume'),
  skip: (guildId: string) => playerCall(guildId, 'POST', '/player/skip'),
  stop: (guildId: string) => playerCall(guildId, 'POST', '/player/stop'),
  shuffle: (guildId: string) => playerCall(guildId, 'POST', '/player/shuffle'),
  volume: (guildId: string, volume: number) => playerCall(guildId, 'PUT', '/player/volume', { volume }),
  loop: (guildId: string, mode: LoopMode) => playerCall(guildId, 'PUT', '/player/loop', { mode }),
  move: (guildId: string, entryId: string, to: number) => playerCall(guildId, 'POST', '/queue/move', { entryId, to }),
  remove: (guildId: string, entryId: string) => playerCall(guildId, 'DELETE', `/queue/${encodeURIComponent(entryId)}`),
  add: (guildId: string, input: QueueAddInput) => playerCall(guildId, 'POST', '/queue', input),
};

/** PATCH /music/library/:id: the title and artist, over the version the page loaded. */
export async function patchTrack(guildId: string, trackId: number, patch: { title?: string; artist?: string | null; baseVersion: number }) {
  return LibraryTrackSchema.parse(await apiRequest('PATCH', `${music(guildId)}/library/${trackId}`, patch));
}

/** DELETE /music/library/:id (the file too). */
export const deleteTrack = (guildId: string, trackId: number) => apiRequest('DELETE', `${music(guildId)}/library/${trackId}`);

/** POST /music/stations */
export async function createStation(guildId: string, input: StationInput) {
  return StationSchema.parse(await apiRequest('POST', `${music(guildId)}/stations`, input));
}

/** PATCH /music/stations/:id: only what changed, over the version the page loaded. */
export async function patchStation(guildId: string, id: number, patch: Partial<StationInput> & { baseVersion: number }) {
  return StationSchema.parse(await apiRequest('PATCH', `${music(guildId)}/stations/${id}`, patch));
}

/** DELETE /music/stations/:id */
export const deleteStation = (guildId: string, id: number) => apiRequest('DELETE', `${music(guildId)}/stations/${id}`);

/** PUT /music/settings: the changed fields with the version the page loaded; answers the settings. */
export async function saveMusicSettings(guildId: string, body: MusicSettingsUpdate) {
  return MusicSettingsViewSchema.parse(await apiRequest('PUT', `${music(guildId)}/settings`, body));
}
