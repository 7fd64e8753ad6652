// /dashboard (spec section 2 "Overview dashboard"): totals over the managed servers with the bot,
// shortcuts, and a card per such server (the product's answer to the spec's fixed primary server).
import { useSignals } from '@preact/signals-react/runtime';
import { Activity, Coins, ListChecks, Plus, Server, Terminal, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useServers, useServerStats } from '../api/queries';
import { ErrorCard } from '../components/error-card';
import { MyServersLink } from '../components/my-servers-link';
import { PageHeader } from '../components/page-header';
import { ServerQuickCard } from '../components/server-quick-card';
import { StatCard } from '../components/stat-card';
import { buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { Skeleton } from '../components/ui/skeleton';
import { sessionUser } from '../state/session';

/** The overview screen. */
export default function Dashboard() {
  useSignals();
  const stats = useServerStats();
  const servers = useServers();
  const withBot = servers.data?.filter((server) => server.hasBot);

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={`Hello ${sessionUser.value?.username ?? ''}! Here is how your communities are doing.`}
        actions={
          <>
            <MyServersLink />
            <Link to="/server-management" className={buttonClass('outline')}>
              <ListChecks size={16} aria-hidden="true" /> Server Management
            </Link>
            <Link to="/add-bot" className={buttonClass('primary')}>
              <Plus size={16} aria-hidden="true" /> Add Bot
            </Link>
          </>
        }
      />

      {stats.isError ? (
        <ErrorCard title="Could not load your statistics" error={stats.error} />
      ) : (
        <div className="grid grid-stats">
          <StatCard label="Total Members" value={stats.data?.totalMembers} icon={Users} />
          <StatCard label="Commands Used" value={stats.data?.totalCommands} icon={Terminal} tone="info" />
          <StatCard label="Active Users" value={stats.data?.activeUsers} icon={Activity} tone="success" hint="Posted in the last 7 days" />
          <StatCard label="Economy Balance" value={stats.data?.totalCurrency} icon={Coins} tone="warning" />
        </div>
      )}

      <h2 className="section-title">Your servers</h2>
      {servers.isError ? (
        <ErrorCard title="Could not load your servers" error={servers.error} />
      ) : !withBot ? (
        <div className="grid grid-2" aria-busy="true">
          <Skeleton height="11rem" />
          <Skeleton height="11rem" />
        </div>
      ) : withBot.length === 0 ? (
        <Card>
          <EmptyState
            icon={Server}
            title="No servers with the bot yet"
            description="Add the bot to a server you manage to see it here."
            actions={
              <Link to="/add-bot" className={buttonClass('primary')}>
                <Plus size={16} aria-hidden="true" /> Add Bot
              </Link>
            }
          />
        </Card>
      ) : (
        <div className="grid grid-2">
          {withBot.map((server) => (
            <ServerQuickCard key={server.id} server={server} />
          ))}
        </div>
      )}
    </>
  );
}
