// Roles given and taken per day by reaction roles, last 30 days (recharts bars).
import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReactionRoleStats } from '../../../src/shared/reaction-roles';
import { chartColors, shortDate } from '../../components/chart-theme';
import { theme } from '../../state/ui';

/** The daily bars. */
export function UsageChart({ daily }: { daily: ReactionRoleStats['daily'] }) {
  useSignals();
  const currentTheme = theme.value;
  const colors = useMemo(() => chartColors(currentTheme), [currentTheme]);
  const data = useMemo(() => daily.map((day) => ({ ...day, label: shortDate(day.date) })), [daily]);
  return (
    <div className="chart chart-sm" role="img" aria-label={`Roles given and taken per day over the last ${daily.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid stroke={colors.grid} strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fill: colors.text, fontSize: 12 }} tickLine={false} axisLine={false} />
          <Tooltip contentStyle={{ background: colors.surface, border: `1px solid ${colors.grid}`, borderRadius: 8 }} labelStyle={{ color: colors.text }} />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          <Bar dataKey="assignments" name="Given" fill={colors.second} radius={[3, 3, 0, 0]} />
          <Bar dataKey="removals" name="Taken" fill={colors.first} radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
