// XP earned per day in the server, last 30 days (recharts bars, legible even for one busy day;
// only the Leveling page loads it).
import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { LevelingStats } from '../../../src/shared/leveling';
import { chartColors, shortDate } from '../../components/chart-theme';
import { theme } from '../../state/ui';

/** The daily XP bar chart. */
export function XpChart({ daily }: { daily: LevelingStats['daily'] }) {
  useSignals();
  const currentTheme = theme.value;
  // currentTheme is the cache key: the colours come from CSS variables that change with it.
  const colors = useMemo(() => chartColors(currentTheme), [currentTheme]);
  const data = useMemo(() => daily.map((day) => ({ ...day, label: shortDate(day.date) })), [daily]);
  const total = daily.reduce((sum, day) => sum + day.xp, 0);
  return (
    <div className="chart chart-sm" role="img" aria-label={`XP earned per day over the last ${daily.length} days: ${total.toLocaleString()} in all`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} />
          <Tooltip contentStyle={{ background: colors.surface, border: `1px solid ${colors.grid}`, borderRadius: 8 }} labelStyle={{ color: colors.text }} />
          <Bar dataKey="xp" name="XP" fill={colors.first} radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
