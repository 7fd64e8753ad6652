import type { Health } from '../../../src/shared/health';
import { useHealth } from '../../api/queries';
import { useEffect, useState } from 'react';
import { afterLoad } from '../../state/after-load';
import { cn } from '../ui/cn';
import { Tooltip } from '../ui/tooltip';

/** What the indicator shows for a gateway status. */
function describe(health: Health | undefined): { label: string; tone: 'online' | 'pending' | 'offline' } {
  switch (health?.gateway.status) {
    case 'ready':
      return { label: 'Online', tone: 'online' };
    case 'connecting':
    case 'reconnecting':
      return { label: 'Connecting', tone: 'pending' };
    default:
      return { label: 'Offline', tone: 'offline' };
  }
}

/**
 * The bot's connection state in the header: Online when the gateway is ready. It is a status, not
 * a control, so it is no tab stop; the gateway details show on hover. The live region holds only the
 * word, so a screen reader hears a change of state, not every ping.
 */
export function OnlineIndicator() {
  // Asked once the page has loaded: the header's status is not what the page was opened for.
  const [loaded, setLoaded] = useState(false);
  useEffect(() => afterLoad(() => setLoaded(true)), []);
  const health = useHealth({ enabled: loaded });
  const { label, tone } = describe(health.data);
  const details = health.data
    ? `Gateway ${health.data.gateway.status.replace('_', ' ')}` +
      (health.data.gateway.ping >= 0 ? ` · ${health.data.gateway.ping} ms` : '') +
      ` · ${health.data.gateway.guilds} server${health.data.gateway.guilds === 1 ? '' : 's'}`
    : health.isError
      ? 'Health check failed'
      : 'Checking…';
  return (
    <Tooltip label={details} side="bottom">
      <span className={cn('status-pill', `status-${tone}`)} role="status" data-testid="online-indicator">
        <span className="status-dot" aria-hidden="true" />
        <span>{label}</span>
      </span>
    </Tooltip>
  );
}
