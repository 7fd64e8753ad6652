// What the charts share: the theme's colours (SVG attributes cannot use var()) and day labels.

/** Reads the chart colours from the theme's CSS variables. */
export function chartColors(_theme?: string) {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    first: read('--chart-1', '#5865f2'),
    second: read('--chart-2', '#23a55a'),
    grid: read('--border', '#333'),
    text: read('--text-muted', '#999'),
    surface: read('--surface-2', '#222'),
  };
}

/** "2025-03-07" -> "Mar 7" (UTC, as the server counts days). */
export function shortDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
