import type { ReactNode } from 'react';
import { useDocumentTitle } from './use-document-title';

/** Props of PageHeader. */
export interface PageHeaderProps {
  title: ReactNode;
  /** The page's name in the tab title, when `title` is not plain text. */
  documentTitle?: string;
  /** The server the page belongs to, shown in the tab title: "Leveling · Sandbox Community · AwesomeBot Dashboard". */
  serverName?: string;
  description?: ReactNode;
  /** Buttons shown at the right (below on small screens). */
  actions?: ReactNode;
  /** A picture before the title (a server's icon), outside the h1 so the heading reads as the title alone. */
  icon?: ReactNode;
}

/**
 * A screen's title row: h1, a muted line and actions. It names the tab after the page (and its
 * server). The layout moves focus to this h1 after a navigation (useRouteFocus).
 */
export function PageHeader({ title, documentTitle, serverName, description, actions, icon }: PageHeaderProps) {
  useDocumentTitle(documentTitle ?? (typeof title === 'string' ? title : undefined), serverName);
  return (
    <div className="page-header">
      <div>
        {icon ? (
          <div className="title-with-icon">
            {icon}
            <h1 className="page-title">{title}</h1>
          </div>
        ) : (
          <h1 className="page-title">{title}</h1>
        )}
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}
