// How the Music page writes lengths and positions.

/** "3:05", "1:02:03": a length or a position in seconds. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** A track's length, or "Live" for a stream. */
export function trackLength(durationSeconds: number | null): string {
  return durationSeconds === null ? 'Live' : formatDuration(durationSeconds);
}
