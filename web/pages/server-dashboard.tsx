// /server/{serverId}/dashboard: the server's live numbers, 30 days of activity, the role grants that did not go through, and its pages.
import { Activity, ArrowRight, Coins, Terminal, Users } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import type { DiagnosticFeature } from '../../src/shared/diagnostics';
import { atLeast } from '../../src/shared/access';
import { diagnosticsQuery, settingsQuery } from '../api/guild';
import { hasStatus, isRetryable } from '../api/client';
import { useServerOverview } from '../api/queries';
import { ActivityChart } from '../components/lazy-charts';
import { ErrorCard } from '../components/error-card';
import { MyServersLink } from '../components/my-servers-link';
import { PageHeader } from '../components/page-header';
import { ServerIcon } from '../components/server-icon';
import { StatCard } from '../components/stat-card';
import { useDocumentTitle } from '../components/use-document-title';
import { Badge } from '../components/ui/badge';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card';
import { Skeleton } from '../components/ui/skeleton';
import { RoleGrantsCard } from '../features/role-grants/role-grants-card';
import { FEATURES } from '../navigation';
import { serverPath } from '../state/server';

/** The title and text of the error card for a failed overview read. */
function explain(error: unknown): { title: string; description?: string } {
  if (hasStatus(error, 403)) return { title: 'Access Denied', description: 'You need the Manage Server permission in this server to manage it.' };
  if (hasStatus(error, 404)) return { title: 'Server Not Found', description: 'This server does not exist, or the bot is not in it.' };
  if (hasStatus(error, 401)) return { title: 'Authentication Required', description: 'Your session has ended. Sign in again.' };
  return { title: 'Could not load this server' };
}

/** Which diagnostics each page's tile counts. */
const TILE_DIAGNOSTICS: Partial<Record<string, readonly DiagnosticFeature[]>> = {
  welcome: ['welcome'],
  rules: ['verification'],
  roles: ['reactionRoles'],
  leveling: ['leveling'],
  economy: ['economy'],
  announcements: ['announcements'],
  settings: ['notifications', 'autoRole'],
};

/** The whole screen when the overview cannot be read: why, My Servers, and Try again if it may help. */
function OverviewError({ error, retry }: { error: unknown; retry: () => void }) {
  const { title, description } = explain(error);
  useDocumentTitle(title);
  return (
    <ErrorCard
      heading="h1"
      title={title}
      error={error}
      description={description}
      actions={
        <>
          <MyServersLink variant="primary" />
          {isRetryable(error) ? (
            <Button variant="outline" onClick={retry}>
              Try again
            </Button>
          ) : null}
        </>
      }
    />
  );
}

/** The per-server dashboard. */
export default function ServerDashboard() {
  const { serverId = '' } = useParams();
  const overview = useServerOverview(serverId);
  const diagnostics = useQuery({ ...diagnosticsQuery(serverId), enabled: !overview.isError });
  const settings = useQuery({ ...settingsQuery(serverId), enabled: !overview.isError });
  const canEdit = settings.data ? atLeast(settings.data.access, 'edit') : false;
  const problems = (slug: string) => (TILE_DIAGNOSTICS[slug] ?? []).reduce((sum, feature) => sum + (diagnostics.data?.counts[feature] ?? 0), 0);

  if (overview.isError) return <OverviewError error={overview.error} retry={() => void overview.refetch()} />;

  const data = overview.data;
  return (
    <>
      <PageHeader
        title={data ? data.name : <Skeleton width="16rem" height="2rem" />}
        icon={data ? <ServerIcon id={data.id} name={data.name} icon={data.icon} size="md" /> : undefined}
        documentTitle="Dashboard"
        serverName={data?.name}
        description="Server overview"
      />
      <div className="grid grid-stats">
        <StatCard label="Members" value={data?.memberCount} icon={Users} hint="Live from Discord" />
        <StatCard label="Commands Used" value={data?.commandsUsed} icon={Terminal} tone="info" />
        <StatCard label="Active Users" value={data?.activeUsers} icon={Activity} tone="success" hint="Posted in the last 7 days" />
        <StatCard label="Economy Balance" value={data?.economyBalance} icon={Coins} tone="warning" hint="Sum of all balances" />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Activity</CardTitle>
          <CardDescription>Messages and new members per day, last 30 days</CardDescription>
        </CardHeader>
        <CardContent>{data ? <ActivityChart activity={data.activity} /> : <Skeleton height="18rem" />}</CardContent>
      </Card>

      <RoleGrantsCard guildId={serverId} canEdit={canEdit} />

      <h2 className="section-title">Manage</h2>
      <div className="grid grid-cards">
        {FEATURES.map(({ slug, label, icon: Icon, summary }) => (
          <Link key={slug} to={serverPath(serverId, slug)} className="card tile">
            <span className="feature-icon">
              <Icon size={20} aria-hidden="true" />
            </span>
            <span className="tile-text">
              <span className="tile-title">
                {label}
                {problems(slug) > 0 ? (
                  <Badge tone="danger" className="tile-badge">
                    {problems(slug) === 1 ? '1 problem' : `${problems(slug)} problems`}
                  </Badge>
                ) : null}
              </span>
              <span className="muted small">{summary}</span>
            </span>
            <ArrowRight size={16} aria-hidden="true" className="tile-arrow" />
          </Link>
        ))}
      </div>
    </>
  );
}
