// The shell of a per-server feature page that a later issue fills in: its title, the
// server it belongs to and one line on what it will hold.
import { Construction } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { useServers } from '../api/queries';
import { PageHeader } from '../components/PageHeader';
import { buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { findFeature } from '../navigation';
import { serverPath } from '../state/server';
import NotFound from './NotFound';

/** A feature page of /server/{serverId}/{slug}. */
export default function FeaturePage({ slug }: { slug: string }) {
  const { serverId = '' } = useParams();
  const feature = findFeature(slug);
  const servers = useServers();
  if (!feature) return <NotFound />;
  const serverName = servers.data?.find((server) => server.id === serverId)?.name;
  const Icon = feature.icon;

  return (
    <>
      <PageHeader title={feature.label} description={serverName ? `${serverName} · ${feature.summary}` : feature.summary} />
      <Card>
        <EmptyState
          icon={Icon}
          title={`${feature.label} is on its way`}
          description={feature.summary}
          actions={
            <Link to={serverPath(serverId, 'dashboard')} className={buttonClass('outline')}>
              <Construction size={16} aria-hidden="true" /> Server overview
            </Link>
          }
        />
      </Card>
    </>
  );
}
