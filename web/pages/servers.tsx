// /servers (spec section 2 "Server list"): the guilds the user manages, with bot presence.
import { useSignals } from '@preact/signals-react/runtime';
import { Backpack, Info, LockKeyhole, RefreshCw, ServerOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { hasStatus } from '../api/client';
import { useCommunities, useMeta, useServers } from '../api/queries';
import { AddBotLink } from '../components/add-bot-link';
import { formatNumber } from '../components/stat-card';
import { serverPath } from '../state/server';
import { ErrorCard } from '../components/error-card';
import { PageHeader } from '../components/page-header';
import { ServerCard, ServerCardSkeleton, ServerCardTop } from '../components/server-card';
import { Button, buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { sessionUser } from '../state/session';

/** How many placeholder cards show while the list loads (spec section 9: 3 or 4): two full rows of the two-column grid. */
const SKELETON_CARDS = 4;

/** "Communities you're in": servers with the bot where the user is a member, each opening their rank and inventory. */
function Communities() {
  const communities = useCommunities();
  if (communities.isPending || communities.isError || communities.data.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="communities-heading">
      <h2 id="communities-heading" className="section-title">
        Communities you're in
      </h2>
      <p className="muted">See your rank and the items you bought in servers where you are a member.</p>
      <div className="grid grid-servers">
        {communities.data.map((server) => (
          <Card key={server.id} className="server-card" data-testid="community-card">
            <ServerCardTop server={server} size="lg">
              <p className="muted small">{server.memberCount === null ? '' : `${formatNumber(server.memberCount)} members`}</p>
            </ServerCardTop>
            <div className="server-card-actions">
              <Link to={serverPath(server.id, 'inventory')} className={buttonClass('primary', 'md', 'grow')}>
                <Backpack size={16} aria-hidden="true" /> My Rank & Inventory
              </Link>
            </div>
          </Card>
        ))}
      </div>
    </section>
  );
}

/** The server list screen. */
export default function Servers() {
  useSignals();
  const meta = useMeta();
  const servers = useServers();
  const username = sessionUser.value?.username ?? '';

  return (
    <>
      <PageHeader
        title="My Servers"
        description={`Welcome back, ${username}! Choose a server to manage.`}
        actions={
          <>
            <Button variant="outline" onClick={() => void servers.refetch()} disabled={servers.isFetching} aria-label="Refresh the server list">
              <RefreshCw size={16} aria-hidden="true" className={servers.isFetching ? 'spin' : undefined} /> Refresh
            </Button>
            <AddBotLink meta={meta.data} />
          </>
        }
      />

      {servers.isPending ? (
        <div className="grid grid-servers" role="status" aria-busy="true" aria-label="Loading servers">
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <ServerCardSkeleton key={index} />
          ))}
        </div>
      ) : servers.isError ? (
        <ErrorCard
          title="Authentication Required"
          description={
            <>
              You need to be authenticated to view your servers.
              {hasStatus(servers.error, 401) ? null : <span className="block muted small">{servers.error.message}</span>}
            </>
          }
          actions={
            <Link to="/test-auth" className={buttonClass('primary')}>
              <LockKeyhole size={16} aria-hidden="true" /> Go to Authentication
            </Link>
          }
        />
      ) : servers.data.length === 0 ? (
        <Card>
          <EmptyState
            icon={ServerOff}
            title="No Servers Found"
            description="You don't manage any server yet. Invite the bot to a server where you have the Manage Server permission."
            actions={<AddBotLink meta={meta.data} />}
          />
        </Card>
      ) : (
        <div className="grid grid-servers">
          {servers.data.map((server) => (
            <ServerCard key={server.id} server={server} meta={meta.data} />
          ))}
        </div>
      )}

      <Communities />

      <Card className="help-card">
        <Info size={20} aria-hidden="true" />
        <div>
          <h2 className="help-title">Don't see your server?</h2>
          <p className="muted">
            Only servers where you have the <strong>Manage Server</strong> permission appear here. After adding the bot, use Refresh; it may take a few minutes
            to appear.
          </p>
        </div>
      </Card>
    </>
  );
}
