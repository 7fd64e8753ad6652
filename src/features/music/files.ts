// Where the library's files lie on disk: MUSIC_DIR, one folder per server (its id, digits only),
// each file named by its content hash and format, never by a name a person chose.
import path from 'node:path';
import type { Services } from '../../core/services';
import type { MusicTrack } from '../../db/models/music';

/** The library's folder, absolute. */
export function libraryRoot(services: Pick<Services, 'config'>): string {
  return path.resolve(services.config.music.dir);
}

/** Where a track's file lies: the guild's folder and the content hash with the format's extension. */
export function trackPath(services: Pick<Services, 'config'>, track: Pick<MusicTrack, 'guildId' | 'contentHash' | 'format'>): string {
  return path.join(libraryRoot(services), track.guildId, `${track.contentHash}.${track.format}`);
}
