import { LoaderCircle } from 'lucide-react';

/** Props of Spinner. */
export interface SpinnerProps {
  size?: number;
  /** Announced to screen readers; omit when visible text already says it. */
  label?: string;
}

/** A rotating loading indicator. */
export function Spinner({ size = 20, label }: SpinnerProps) {
  return (
    <span className="spinner" role={label ? 'status' : undefined} aria-label={label}>
      <LoaderCircle size={size} aria-hidden="true" />
    </span>
  );
}
