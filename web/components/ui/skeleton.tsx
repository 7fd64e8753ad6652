import type { CSSProperties } from 'react';
import { cn } from './cn';

/** Props of Skeleton. */
export interface SkeletonProps {
  className?: string;
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  /** Makes the block a circle (avatars, icons). */
  round?: boolean;
}

/** A shimmering placeholder block shown while data loads; hidden from screen readers. */
export function Skeleton({ className, width, height, round }: SkeletonProps) {
  return <span aria-hidden="true" className={cn('skeleton', round && 'skeleton-round', className)} style={{ width, height }} />;
}
