import { Settings2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { serverPath } from '../state/server';
import { buttonClass } from './ui/button';

/** The "Manage" button of a server row: that server's dashboard. */
export function ManageServerLink({ serverId }: { serverId: string }) {
  return (
    <Link to={serverPath(serverId, 'dashboard')} className={buttonClass('outline', 'sm')}>
      <Settings2 size={14} aria-hidden="true" /> Manage
    </Link>
  );
}
