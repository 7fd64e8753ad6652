// Messages and joins per day for the last 30 days (recharts; only the server dashboard loads it).
import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ServerOverview } from '../../src/shared/servers';
import { theme } from '../state/ui';

/** Reads the chart colours from the theme's CSS variables (SVG attributes can't use var()). */
function chartColors() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    messages: read('--chart-1', '#5865f2'),
    joins: read('--chart-2', '#23a55a'),
    grid: read('--border', '#333'),
    text: read('--text-muted', '#999'),
    surface: read('--surface-2', '#222'),
  };
}

/** "2025-03-07" -> "Mar 7" (UTC, as the server counts days). */
function shortDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The activity area chart. */
export function ActivityChart({ activity }: { activity: ServerOverview['activity'] }) {
  useSignals();
  const currentTheme = theme.value;
  // Recomputed when the theme flips so the SVG picks up the new palette.
  // currentTheme is the cache key: the colours come from CSS variables that change with it.
  const colors = useMemo(chartColors, [currentTheme]);
  const data = useMemo(() => activity.map((day) => ({ ...day, label: shortDate(day.date) })), [activity]);

  return (
    <div className="chart" role="img" aria-label={`Messages and joins per day over the last ${activity.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <defs>
            <linearGradient id="fill-messages" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={colors.messages} stopOpacity={0.35} />
              <stop offset="100%" stopColor={colors.messages} stopOpacity={0} />
            </linearGradient>
            <linearGradient id="fill-joins" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={colors.joins} stopOpacity={0.35} />
              <stop offset="100%" stopColor={colors.joins} stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} />
          <Tooltip
            contentStyle={{ background: colors.surface, border: `1px solid ${colors.grid}`, borderRadius: 8 }}
            labelStyle={{ color: colors.text }}
          />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          <Area type="monotone" dataKey="messages" name="Messages" stroke={colors.messages} fill="url(#fill-messages)" strokeWidth={2} />
          <Area type="monotone" dataKey="joins" name="Joins" stroke={colors.joins} fill="url(#fill-joins)" strokeWidth={2} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
