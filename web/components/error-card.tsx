import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { Card } from './ui/card';
import { EmptyState } from './ui/empty-state';

/** Props of ErrorCard. */
export interface ErrorCardProps {
  title: string;
  /** The error to explain, or a ready sentence. */
  error?: unknown;
  description?: ReactNode;
  actions?: ReactNode;
  /** h1 when the error is the whole screen, else h2. */
  heading?: 'h1' | 'h2';
}

/** A card explaining why a read failed, with a way forward. */
export function ErrorCard({ title, error, description, actions, heading }: ErrorCardProps) {
  return (
    <Card role="alert">
      <EmptyState
        icon={CircleAlert}
        tone="danger"
        title={title}
        description={description ?? (error === undefined ? undefined : errorMessage(error))}
        actions={actions}
        heading={heading}
      />
    </Card>
  );
}
