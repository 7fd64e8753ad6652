// Messages and joins per day for the last 30 days (recharts; only the server dashboard loads it).
import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ServerOverview } from '../../src/shared/servers';
import { theme } from '../state/ui';
import { chartColors, shortDate } from './chart-theme';

/**
 * The activity area chart: an image with a text alternative. Recharts' keyboard layer is off, as in
 * the other charts: it would make the SVG a tab stop inside an image that exposes no children.
 */
export function ActivityChart({ activity }: { activity: ServerOverview['activity'] }) {
  useSignals();
  const currentTheme = theme.value;
  // Recomputed when the theme flips so the SVG picks up the new palette.
  // currentTheme is the cache key: the colours come from CSS variables that change with it.
  const colors = useMemo(() => chartColors(currentTheme), [currentTheme]);
  const data = useMemo(() => activity.map((day) => ({ ...day, label: shortDate(day.date) })), [activity]);

  return (
    <div className="chart" role="img" aria-label={`Messages and joins per day over the last ${activity.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <defs>
            <linearGradient id="fill-messages" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={colors.first} stopOpacity={0.35} />
              <stop offset="100%" stopColor={colors.first} stopOpacity={0} />
            </linearGradient>
            <linearGradient id="fill-joins" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={colors.second} stopOpacity={0.35} />
              <stop offset="100%" stopColor={colors.second} stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} />
          <Tooltip contentStyle={{ background: colors.surface, border: `1px solid ${colors.grid}`, borderRadius: 8 }} labelStyle={{ color: colors.text }} />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          <Area type="monotone" dataKey="messages" name="Messages" stroke={colors.first} fill="url(#fill-messages)" strokeWidth={2} />
          <Area type="monotone" dataKey="joins" name="Joins" stroke={colors.second} fill="url(#fill-joins)" strokeWidth={2} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
