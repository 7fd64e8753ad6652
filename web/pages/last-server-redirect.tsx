import { useSignals } from '@preact/signals-react/runtime';
import { Navigate } from 'react-router-dom';
import { currentServerId, serverPath } from '../state/server';

/** The unprefixed pages (/economy, ...): the last chosen server's page, or the server picker. */
export default function LastServerRedirect({ slug }: { slug: string }) {
  useSignals();
  const serverId = currentServerId.value;
  return <Navigate to={serverId ? serverPath(serverId, slug) : '/servers'} replace />;
}
