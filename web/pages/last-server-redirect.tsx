// The unprefixed pages (/economy, /welcome, ...): each is a page of one server, so it opens in the
// server the user last worked on. With none remembered (a first visit, another browser) nothing
// is guessed: a picker says why it asks and lists the servers where that page opens.
import { useSignals } from '@preact/signals-react/runtime';
import { ArrowRight, ServerOff } from 'lucide-react';
import { Link, Navigate } from 'react-router-dom';
import { accessLabel } from '../../src/shared/access';
import { useCommunities, useServers } from '../api/queries';
import { ErrorCard } from '../components/error-card';
import { MyServersLink } from '../components/my-servers-link';
import { PageHeader } from '../components/page-header';
import { ServerCardSkeleton, ServerCardTop } from '../components/server-card';
import { buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { findFeature, MEMBER_PAGES } from '../navigation';
import { currentServerId, serverPath } from '../state/server';

/** The servers where the page `slug` opens: those with the bot the user manages or views, and for a member page their communities too. */
function useServersFor(slug: string) {
  const managed = useServers();
  const memberPage = MEMBER_PAGES.includes(slug);
  const communities = useCommunities({ enabled: memberPage });
  const servers = [...(managed.data ?? []).filter((server) => server.hasBot), ...(memberPage ? (communities.data ?? []) : [])];
  const pending = managed.isPending || (memberPage && communities.isPending);
  const error = managed.error ?? (memberPage ? communities.error : null);
  return { servers, pending, error };
}

/** The picker: why it asks, then one card per server that opens the page there. */
function ServerPicker({ slug }: { slug: string }) {
  const label = findFeature(slug)?.label ?? slug;
  const { servers, pending, error } = useServersFor(slug);
  return (
    <>
      <PageHeader
        title="Choose a Server"
        documentTitle={label}
        description={
          `${label} belongs to one server, and you have not opened a server in this browser yet. ` +
          `Choose the server to open it in: /${slug} opens there from then on.`
        }
      />
      {pending ? (
        <div className="grid grid-servers" aria-busy="true" aria-label="Loading servers">
          <ServerCardSkeleton />
          <ServerCardSkeleton />
        </div>
      ) : error ? (
        <ErrorCard title="Could not load your servers" error={error} actions={<MyServersLink />} />
      ) : servers.length === 0 ? (
        <Card>
          <EmptyState
            icon={ServerOff}
            title="No server to open it in"
            description={`${label} opens in a server with the bot where you have the Manage Server permission or dashboard access, and you have none yet.`}
            actions={
              <>
                <Link to="/add-bot" className={buttonClass('primary')}>
                  Add Bot
                </Link>
                <MyServersLink />
              </>
            }
          />
        </Card>
      ) : (
        <ul className="grid grid-servers" aria-label="Your servers">
          {servers.map((server) => (
            <li key={server.id}>
              <Card className="server-card">
                <ServerCardTop server={server} size="md">
                  <p className="muted small">{accessLabel(server.access)}</p>
                </ServerCardTop>
                <div className="server-card-actions">
                  <Link to={serverPath(server.id, slug)} className={buttonClass('primary', 'md', 'grow')} aria-label={`Open ${label} in ${server.name}`}>
                    Open {label} <ArrowRight size={16} aria-hidden="true" />
                  </Link>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The last chosen server's page, or the picker when no server was chosen yet. */
export default function LastServerRedirect({ slug }: { slug: string }) {
  useSignals();
  const serverId = currentServerId.value;
  if (serverId) return <Navigate to={serverPath(serverId, slug)} replace />;
  return <ServerPicker slug={slug} />;
}
