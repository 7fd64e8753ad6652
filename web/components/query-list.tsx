// The states of a list read from the API, the same everywhere: skeleton rows while it loads, the
// reason when it fails, an empty state when there is nothing, else the list itself.
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { EmptyState, type EmptyStateProps } from './ui/empty-state';
import { Skeleton } from './ui/skeleton';

/** Props of QueryList. */
export interface QueryListProps<T> {
  /** The read's state (a react-query result, or one mapped to its items). */
  query: { isPending: boolean; isError: boolean; error: unknown; data?: readonly T[] | undefined };
  /** What the list is, for the error line: "the reaction roles". */
  what: string;
  empty: Omit<EmptyStateProps, 'heading'>;
  children: (items: readonly T[]) => ReactNode;
  rowHeight?: string;
}

/** Renders the list's current state. */
export function QueryList<T>({ query, what, empty, children, rowHeight = '2.5rem' }: QueryListProps<T>) {
  if (query.isPending) {
    return (
      <div className="stack-sm" role="status" aria-busy="true" aria-label={`Loading ${what}`}>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={rowHeight} />
        ))}
      </div>
    );
  }
  if (query.isError || !query.data)
    return (
      <p className="error-text small">
        Could not load {what}: {errorMessage(query.error)}
      </p>
    );
  if (query.data.length === 0) return <EmptyState {...empty} />;
  return <>{children(query.data)}</>;
}
