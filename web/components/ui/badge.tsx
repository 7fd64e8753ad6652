import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** Colour of a badge. */
export type BadgeTone = 'neutral' | 'brand' | 'success' | 'warning' | 'danger';

/** Props of Badge. */
export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

/** A small status label such as 'Bot Active'. */
export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return <span className={cn('badge', `badge-${tone}`, className)} {...props} />;
}
