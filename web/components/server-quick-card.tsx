// A managed server with the bot on the overview dashboard: its numbers and shortcuts to its pages.
import { Coins, Terminal, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { Server } from '../../src/shared/auth';
import { useServerOverview } from '../api/queries';
import { findFeature } from '../navigation';
import { serverPath } from '../state/server';
import { ServerCardTop } from './server-card';
import { formatNumber } from './stat-card';
import { Badge } from './ui/badge';
import { buttonClass } from './ui/button';
import { Card } from './ui/card';
import { Skeleton } from './ui/skeleton';

/** The shortcuts each card offers, in the spec's order. */
const SHORTCUTS = ['welcome', 'rules', 'economy', 'leveling', 'moderation', 'roles'] as const;

/** One server's card: members, commands used, economy, and links to its dashboard and pages. */
export function ServerQuickCard({ server }: { server: Server }) {
  const overview = useServerOverview(server.id);
  const members = overview.data?.memberCount ?? server.memberCount;
  return (
    <Card className="quick-card" data-testid="quick-card">
      <div className="quick-card-head">
        <ServerCardTop server={server} size="md">
          <Badge tone="success">
            <Coins size={12} aria-hidden="true" /> Economy Active
          </Badge>
        </ServerCardTop>
        <Link to={serverPath(server.id, 'dashboard')} className={buttonClass('primary', 'sm')} aria-label={`Dashboard of ${server.name}`}>
          Dashboard
        </Link>
      </div>
      <dl className="quick-stats">
        <div>
          <dt>
            <Users size={14} aria-hidden="true" /> Members
          </dt>
          <dd>{members === null ? 'Unknown' : formatNumber(members)}</dd>
        </div>
        <div>
          <dt>
            <Terminal size={14} aria-hidden="true" /> Commands
          </dt>
          <dd>{overview.data ? formatNumber(overview.data.commandsUsed) : overview.isError ? '—' : <Skeleton width="3rem" height="1rem" />}</dd>
        </div>
      </dl>
      <nav className="chip-row" aria-label={`${server.name} pages`}>
        {SHORTCUTS.map((slug) => {
          const feature = findFeature(slug);
          if (!feature) return null;
          const Icon = feature.icon;
          return (
            <Link key={slug} to={serverPath(server.id, slug)} className="chip">
              <Icon size={14} aria-hidden="true" /> {feature.label}
            </Link>
          );
        })}
      </nav>
    </Card>
  );
}
