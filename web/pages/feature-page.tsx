// The shell of a per-server feature page that a later issue fills in: its title, the
// server it belongs to and one line on what it will hold.
import { useParams } from 'react-router-dom';
import { useServers } from '../api/queries';
import { PageHeader } from '../components/page-header';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';
import { findFeature } from '../navigation';
import NotFound from './not-found';

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
      <PageHeader title={feature.label} serverName={serverName} description={serverName ? `${serverName} · ${feature.summary}` : feature.summary} />
      <Card>
        <EmptyState icon={Icon} title={`${feature.label} is on its way`} description="This page is being built. Its settings will appear here." />
      </Card>
    </>
  );
}
