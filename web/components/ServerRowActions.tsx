import type { ReactNode } from 'react';
import { Settings2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { inviteUrl } from '../../src/shared/discord-urls';
import type { PublicMeta } from '../../src/shared/meta';
import { serverPath } from '../state/server';
import { buttonClass } from './ui/button';

/** The small "add the bot to this server" button of a server row: the invite for that guild, in a new tab. */
export function AddBotLink({ meta, serverId, serverName, children }: { meta: PublicMeta | undefined; serverId: string; serverName: string; children: ReactNode }) {
  if (!meta) return null;
  return (
    <a
      className={buttonClass('success', 'sm')}
      href={inviteUrl(meta, serverId)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Add the bot to ${serverName} (new tab)`}
    >
      {children}
    </a>
  );
}

/** The "Manage" button of a server row: that server's dashboard. */
export function ManageServerLink({ serverId }: { serverId: string }) {
  return (
    <Link to={serverPath(serverId, 'dashboard')} className={buttonClass('outline', 'sm')}>
      <Settings2 size={14} aria-hidden="true" /> Manage
    </Link>
  );
}
