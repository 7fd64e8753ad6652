import type { LucideIcon } from 'lucide-react';
import { Card } from './ui/card';
import { Skeleton } from './ui/skeleton';

/** Props of StatCard. */
export interface StatCardProps {
  label: string;
  /** The number to show; undefined while loading. */
  value: number | string | undefined;
  icon: LucideIcon;
  hint?: string;
  tone?: 'brand' | 'success' | 'warning' | 'info';
}

/** Formats a count with the reader's digit grouping. */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat().format(value);
}

/** One headline number with its label and icon; shows a skeleton while the value is undefined. */
export function StatCard({ label, value, icon: Icon, hint, tone = 'brand' }: StatCardProps) {
  return (
    <Card className="stat-card">
      <div className="stat-text">
        <p className="stat-label">{label}</p>
        {value === undefined ? (
          <Skeleton width="5rem" height="1.75rem" />
        ) : (
          <p className="stat-value">{typeof value === 'number' ? formatNumber(value) : value}</p>
        )}
        {hint ? <p className="stat-hint">{hint}</p> : null}
      </div>
      <span className={`stat-icon stat-icon-${tone}`}>
        <Icon size={22} aria-hidden="true" />
      </span>
    </Card>
  );
}
