// /server-management (spec section 2): counts, the servers with the bot, and the ones without.
import { Bot, CirclePlus, Layers, Plus, Server as ServerIconGlyph, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useMeta, useServers } from '../api/queries';
import { AddBotLink } from '../components/add-bot-link';
import { ManageServerLink } from '../components/server-row-actions';
import { ErrorCard } from '../components/error-card';
import { PageHeader } from '../components/page-header';
import { ServerRow, ServerRowsSkeleton } from '../components/server-row';
import { StatCard } from '../components/stat-card';
import { Badge } from '../components/ui/badge';
import { buttonClass } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { groupServers } from '../server-groups';

/** The server management screen. */
export default function ServerManagement() {
  const meta = useMeta();
  const servers = useServers();
  const groups = servers.data ? groupServers(servers.data) : undefined;
  const withBot = groups?.withBot;
  const available = groups?.withoutBot;

  return (
    <>
      <PageHeader title="Server Management" description="Every server you manage, and where the bot is active." />
      {servers.isError ? (
        <ErrorCard title="Could not load your servers" error={servers.error} />
      ) : (
        <>
          <div className="grid grid-stats">
            <StatCard label="Servers with Bot" value={withBot?.length} icon={Bot} tone="success" />
            <StatCard label="Total Members" value={groups?.membersWithBot} icon={Users} hint="In servers with the bot" />
            <StatCard label="Available Servers" value={available?.length} icon={CirclePlus} tone="warning" hint="Without the bot" />
            <StatCard label="Managed Servers" value={groups?.all.length} icon={Layers} tone="info" />
          </div>

          <div className="grid grid-2">
            <Card>
              <CardHeader>
                <CardTitle>Servers with the bot</CardTitle>
                <CardDescription>The bot is active and ready to configure.</CardDescription>
              </CardHeader>
              <CardContent>
                {!withBot ? (
                  <ServerRowsSkeleton />
                ) : withBot.length === 0 ? (
                  <EmptyState
                    icon={ServerIconGlyph}
                    title="No servers with the bot yet"
                    actions={
                      <Link to="/add-bot" className={buttonClass('primary')}>
                        <Plus size={16} aria-hidden="true" /> Add Bot
                      </Link>
                    }
                  />
                ) : (
                  <ul className="server-rows">
                    {withBot.map((server) => (
                      <ServerRow
                        key={server.id}
                        server={server}
                        badges={<Badge tone="success">Active</Badge>}
                        action={<ManageServerLink serverId={server.id} />}
                      />
                    ))}
                  </ul>
                )}
              </CardContent>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle>Available Servers</CardTitle>
                <CardDescription>Servers you manage that don't have the bot yet.</CardDescription>
              </CardHeader>
              <CardContent>
                {!available ? (
                  <ServerRowsSkeleton />
                ) : available.length === 0 ? (
                  <p className="muted">The bot is in every server you manage.</p>
                ) : (
                  <ul className="server-rows">
                    {available.map((server) => (
                      <ServerRow
                        key={server.id}
                        server={server}
                        badges={<Badge tone="neutral">No Bot</Badge>}
                        action={<AddBotLink meta={meta.data} server={server} size="sm" />}
                      />
                    ))}
                  </ul>
                )}
              </CardContent>
            </Card>
          </div>
        </>
      )}
    </>
  );
}
