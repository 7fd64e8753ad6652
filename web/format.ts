// How the dashboard writes times and counts: in the viewer's own locale and time zone.

/** A date and time in the viewer's zone: "Nov 21, 2026, 8:05 PM". */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "3 minutes ago", "in 2 hours", "now", relative to `now`. */
export function formatRelative(iso: string, now = Date.now()): string {
  const delta = new Date(iso).getTime() - now;
  for (const [unit, size] of UNITS) if (Math.abs(delta) >= size) return RELATIVE.format(Math.round(delta / size), unit);
  return RELATIVE.format(0, 'second');
}

/** The viewer's time zone name, for "shown in Europe/Paris". */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * A `<input type="datetime-local">` value (the viewer's wall-clock time, no zone) as an instant
 * with the viewer's offset, which the server stores: "2026-11-21T20:00" -> "2026-11-21T20:00:00+01:00".
 */
export function localInputToInstant(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${value.length === 16 ? `${value}:00` : value}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** An instant as a `<input type="datetime-local">` value in the viewer's zone. */
export function instantToLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
