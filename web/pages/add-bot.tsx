// /add-bot (spec section 2 "Add Bot"): what the bot does, where it can be added, where it is.
import { ArrowLeft, BookOpen, Bot, CircleCheck, Clock, ExternalLink, Layers, Plus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../src/shared/product';
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
import { FEATURE_AREAS } from '../marketing';
import { groupServers } from '../server-groups';

/** Discord's developer documentation, linked for bot setup details. */
const DOCS_URL = 'https://discord.com/developers/docs/intro';

/** The add-bot screen. */
export default function AddBot() {
  const meta = useMeta();
  const servers = useServers();
  const groups = servers.data ? groupServers(servers.data) : undefined;
  const botName = meta.data?.botName ?? PRODUCT_NAME;

  return (
    <>
      <PageHeader title="Add Bot" description={`Bring ${botName} to your community.`} actions={<AddBotLink meta={meta.data} />} />

      <section className="grid grid-3" aria-label="Features">
        {FEATURE_AREAS.map(({ title, icon: Icon, points }) => (
          <Card key={title} className="feature-card">
            <span className="feature-icon">
              <Icon size={22} aria-hidden="true" />
            </span>
            <h2 className="feature-title">{title}</h2>
            <ul className="check-list">
              {points.map((point) => (
                <li key={point}>
                  <CircleCheck size={14} aria-hidden="true" /> {point}
                </li>
              ))}
            </ul>
          </Card>
        ))}
      </section>

      {servers.isError ? (
        <ErrorCard title="Could not load your servers" error={servers.error} />
      ) : (
        <>
          <div className="grid grid-stats grid-stats-3">
            <StatCard label="Servers with Bot" value={groups?.withBot.length} icon={Bot} tone="success" />
            <StatCard label="Available Servers" value={groups?.invitable.length} icon={Plus} tone="warning" hint="Where you have admin access" />
            <StatCard label="Managed Servers" value={groups?.all.length} icon={Layers} tone="info" />
          </div>

          {/* The same two lists in the same order as on Server Management: with the bot, then available. */}
          <div className="grid grid-2">
            <Card>
              <CardHeader>
                <CardTitle>Servers with the bot</CardTitle>
                <CardDescription>Already set up and ready to configure.</CardDescription>
              </CardHeader>
              <CardContent>
                {!groups ? (
                  <ServerRowsSkeleton />
                ) : groups.withBot.length === 0 ? (
                  <p className="muted">None yet. Add the bot to a server to get started.</p>
                ) : (
                  <ul className="server-rows">
                    {groups.withBot.map((server) => (
                      <ServerRow key={server.id} server={server} action={<ManageServerLink serverId={server.id} />} />
                    ))}
                  </ul>
                )}
              </CardContent>
            </Card>

            <Card>
              <CardHeader>
                <CardTitle>Available Servers</CardTitle>
                <CardDescription>Servers where you can add the bot.</CardDescription>
              </CardHeader>
              <CardContent>
                {!groups ? (
                  <ServerRowsSkeleton />
                ) : groups.withoutBot.length === 0 ? (
                  <div className="notice notice-success" role="status">
                    <CircleCheck size={18} aria-hidden="true" />
                    <div>
                      <p className="strong">The bot is in all your servers!</p>
                      <Link to="/servers">Go to My Servers</Link>
                    </div>
                  </div>
                ) : (
                  <>
                    <ul className="server-rows">
                      {groups.invitable.map((server) => (
                        <ServerRow
                          key={server.id}
                          server={server}
                          badges={<Badge tone="brand">Admin Access</Badge>}
                          action={<AddBotLink meta={meta.data} server={server} size="sm" />}
                        />
                      ))}
                    </ul>
                    {groups.withoutBot.length > groups.invitable.length ? (
                      <p className="muted small">
                        {groups.withoutBot.length - groups.invitable.length} more server(s) without the bot need an administrator to add it, because the bot
                        asks for the Administrator permission.
                      </p>
                    ) : null}
                  </>
                )}
              </CardContent>
            </Card>
          </div>
        </>
      )}

      <Card className="help-card">
        <Clock size={20} aria-hidden="true" />
        <div className="stack-sm">
          <h2 className="help-title">Need help?</h2>
          <p className="muted">
            After you add the bot it may take a few minutes to appear in your server list. The bot needs the Manage Roles permission, its role must sit above
            the roles it gives, and it needs access to your channels.
          </p>
          <div className="row">
            <a className={buttonClass('outline', 'sm')} href={DOCS_URL} target="_blank" rel="noopener noreferrer">
              <BookOpen size={14} aria-hidden="true" /> Documentation <ExternalLink size={12} aria-hidden="true" />
            </a>
            <Link to="/servers" className={buttonClass('ghost', 'sm')}>
              <ArrowLeft size={14} aria-hidden="true" /> Back to My Servers
            </Link>
          </div>
        </div>
      </Card>
    </>
  );
}
