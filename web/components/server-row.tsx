// A compact server line for the management and add-bot lists.
import type { ReactNode } from 'react';
import type { Server } from '../../src/shared/auth';
import { ServerIcon } from './server-icon';
import { formatNumber } from './stat-card';
import { Badge } from './ui/badge';
import { Skeleton } from './ui/skeleton';

/** Props of ServerRow. */
export interface ServerRowProps {
  server: Server;
  badges?: ReactNode;
  /** The button or link at the end of the row. */
  action?: ReactNode;
}

/** Icon; name, member count (or N/A) and badges (Owner for the user's own servers) under it; one action. */
export function ServerRow({ server, badges, action }: ServerRowProps) {
  return (
    <li className="server-row" data-testid="server-row">
      <ServerIcon id={server.id} name={server.name} icon={server.icon} size="md" />
      <div className="server-row-text">
        <p className="server-row-name clamp-2" title={server.name}>
          {server.name}
        </p>
        <p className="muted small">{server.memberCount === null ? 'N/A' : `${formatNumber(server.memberCount)} members`}</p>
        {server.owner || badges ? (
          <div className="badges server-row-badges">
            {server.owner ? <Badge tone="warning">Owner</Badge> : null}
            {badges}
          </div>
        ) : null}
      </div>
      {action ? <div className="server-row-action">{action}</div> : null}
    </li>
  );
}

/** A list of rows as placeholders while servers load. */
export function ServerRowsSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <ul className="server-rows" aria-hidden="true">
      {Array.from({ length: rows }, (_, index) => (
        <li key={index} className="server-row">
          <Skeleton width="2.5rem" height="2.5rem" round />
          <div className="server-row-text stack-sm">
            <Skeleton width="50%" height="0.9rem" />
            <Skeleton width="30%" height="0.75rem" />
          </div>
        </li>
      ))}
    </ul>
  );
}
