import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

/** Props of EmptyState. */
export interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  /** Buttons or links offered as the way forward. */
  actions?: ReactNode;
  tone?: 'neutral' | 'danger';
  /** h1 when the state is the whole screen (e.g. 404), else h2. */
  heading?: 'h1' | 'h2';
  className?: string;
}

/** A centred icon, title, text and actions for "nothing here" and error states. */
export function EmptyState({ icon: Icon, title, description, actions, tone = 'neutral', heading: Heading = 'h2', className }: EmptyStateProps) {
  return (
    <div className={cn('empty-state', tone === 'danger' && 'empty-state-danger', className)}>
      <span className="empty-state-icon">
        <Icon size={28} aria-hidden="true" />
      </span>
      <Heading className="empty-state-title">{title}</Heading>
      {description ? <p className="empty-state-text">{description}</p> : null}
      {actions ? <div className="empty-state-actions">{actions}</div> : null}
    </div>
  );
}
