// One server of the /servers grid (spec section 2 "Server list").
import { ExternalLink, Settings2, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Server } from '../../src/shared/auth';
import { guildChannelsUrl, hasAdministrator } from '../../src/shared/discord-urls';
import type { PublicMeta } from '../../src/shared/meta';
import { serverPath } from '../state/server';
import { AddBotLink } from './add-bot-link';
import { ServerIcon } from './server-icon';
import { formatNumber } from './stat-card';
import { Badge } from './ui/badge';
import { buttonClass } from './ui/button';
import { Card } from './ui/card';
import { Skeleton } from './ui/skeleton';
import { Tooltip } from './ui/tooltip';

/** 'Administrator' when the permissions hold the Administrator bit, else 'Manager' (spec section 6). */
export function roleLabel(permissions: string): 'Administrator' | 'Manager' {
  try {
    return hasAdministrator(permissions) ? 'Administrator' : 'Manager';
  } catch {
    return 'Manager';
  }
}

/** Props of ServerCardTop. */
interface ServerCardTopProps {
  server: Pick<Server, 'id' | 'name' | 'icon'>;
  size: 'md' | 'lg';
  /** The name's heading level: 2 right under the page's h1, 3 (the default) inside a section. */
  level?: 2 | 3;
  children?: ReactNode;
}

/**
 * The top of every server card: the icon, the name (up to two lines; the whole name on hover) and
 * what the card says under it.
 */
export function ServerCardTop({ server, size, level = 3, children }: ServerCardTopProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="server-card-top">
      <ServerIcon id={server.id} name={server.name} icon={server.icon} size={size} />
      <div className="server-card-title">
        <Heading className="card-title clamp-2" title={server.name}>
          {server.name}
        </Heading>
        {children}
      </div>
    </div>
  );
}

/** Props of ServerCard. */
export interface ServerCardProps {
  server: Server;
  /** Needed for the invite and chat-client links; they stay disabled until it loads. */
  meta: PublicMeta | undefined;
}

/** A server card: icon, name, id, bot, role and owner badges, members, and Manage or Add Bot. */
export function ServerCard({ server, meta }: ServerCardProps) {
  const { id, name, hasBot, permissions, memberCount } = server;
  return (
    <Card className="server-card" data-testid="server-card">
      <ServerCardTop server={server} size="lg" level={2}>
        <p className="muted small mono">Server ID: {id}</p>
      </ServerCardTop>
      <div className="badges">
        <Badge tone={hasBot ? 'success' : 'warning'}>{hasBot ? 'Bot Active' : 'Bot Missing'}</Badge>
        <Badge tone="brand">{roleLabel(permissions)}</Badge>
        {server.owner ? <Badge tone="warning">Owner</Badge> : null}
      </div>
      <p className="server-card-members">
        <Users size={16} aria-hidden="true" />
        <span>Members</span>
        <strong>{memberCount === null ? 'Unknown' : formatNumber(memberCount)}</strong>
      </p>
      <div className="server-card-actions">
        {hasBot ? (
          <Link to={serverPath(id, 'dashboard')} className={buttonClass('primary', 'md', 'grow')}>
            <Settings2 size={16} aria-hidden="true" /> Manage
          </Link>
        ) : (
          <AddBotLink meta={meta} server={server} className="grow" />
        )}
        {meta ? (
          <Tooltip label="Open in Discord">
            <a
              className={buttonClass('outline', 'icon')}
              href={guildChannelsUrl(meta, id)}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Open ${name} in Discord (new tab)`}
            >
              <ExternalLink size={16} aria-hidden="true" />
            </a>
          </Tooltip>
        ) : null}
      </div>
    </Card>
  );
}

/** The loading placeholder of a server card. */
export function ServerCardSkeleton() {
  return (
    <Card className="server-card" aria-hidden="true">
      <div className="server-card-top">
        <Skeleton width="3.5rem" height="3.5rem" round />
        <div className="server-card-title stack-sm">
          <Skeleton width="70%" height="1.1rem" />
          <Skeleton width="90%" height="0.8rem" />
        </div>
      </div>
      <div className="badges">
        <Skeleton width="5rem" height="1.4rem" />
        <Skeleton width="5rem" height="1.4rem" />
      </div>
      <Skeleton width="40%" height="1rem" />
      <Skeleton height="2.5rem" />
    </Card>
  );
}
