import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { PRODUCT_NAME } from '../../src/shared/meta';

/** Props of PageHeader. */
export interface PageHeaderProps {
  title: ReactNode;
  /** The page's name in the tab title, when `title` is not plain text. */
  documentTitle?: string;
  /** The server the page belongs to, shown in the tab title: "Leveling · Sandbox Community · AwesomeBot". */
  serverName?: string;
  description?: ReactNode;
  /** Buttons shown at the right (below on small screens). */
  actions?: ReactNode;
}

/**
 * A screen's title row: h1, a muted line and actions. It names the tab after the page (and its
 * server), and after a navigation moves focus to the heading, so screen readers announce the new page.
 */
export function PageHeader({ title, documentTitle, serverName, description, actions }: PageHeaderProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const location = useLocation();
  const name = documentTitle ?? (typeof title === 'string' ? title : undefined);

  useEffect(() => {
    document.title = [name, serverName, PRODUCT_NAME].filter(Boolean).join(' · ');
  }, [name, serverName]);

  useEffect(() => {
    // 'default' is the first page of the visit: focus stays where the browser put it.
    if (location.key !== 'default') heading.current?.focus({ preventScroll: false });
  }, [location.key]);

  return (
    <div className="page-header">
      <div>
        <h1 className="page-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}
