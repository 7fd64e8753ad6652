import type { ReactNode } from 'react';

/** Props of PageHeader. */
export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons shown at the right (below on small screens). */
  actions?: ReactNode;
}

/** A screen's title row: h1, a muted line and actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}
