// How the Music page writes lengths: the server's formatDuration, and "Live" for a stream.
import { formatDuration } from '../../../src/shared/music';

export { formatDuration };

/** A track's length, or "Live" for a stream. */
export function trackLength(durationSeconds: number | null): string {
  return durationSeconds === null ? 'Live' : formatDuration(durationSeconds);
}
