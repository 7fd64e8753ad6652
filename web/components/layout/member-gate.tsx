// A plain member of a server (no dashboard access there) may open only their own pages in it:
// their rank and inventory. Any other page of that server shows why it is closed to them and
// the way to what is theirs, instead of the page's own refusal with nothing to follow.
import { Backpack, LockKeyhole } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useMatch } from 'react-router-dom';
import type { Server } from '../../../src/shared/auth';
import { useServerEntry } from '../../api/queries';
import { MEMBER_PAGES } from '../../navigation';
import { serverHome } from '../../state/server';
import { MyServersLink } from '../my-servers-link';
import { useDocumentTitle } from '../use-document-title';
import { buttonClass } from '../ui/button';
import { Card } from '../ui/card';
import { EmptyState } from '../ui/empty-state';

/** The screen in place of a page a member may not open: why, then their rank and inventory, or My Servers. */
function MembersPagesOnly({ server }: { server: Server }) {
  useDocumentTitle('Access Denied', server.name);
  return (
    <Card>
      <EmptyState
        icon={LockKeyhole}
        heading="h1"
        title="Access Denied"
        description={`This page is for the people who manage ${server.name}. As a member there, you can see your rank ` + `and the items you bought.`}
        actions={
          <>
            <Link to={serverHome(server.id, 'member')} className={buttonClass('primary')}>
              <Backpack size={16} aria-hidden="true" /> My Rank & Inventory
            </Link>
            <MyServersLink />
          </>
        }
      />
    </Card>
  );
}

/** Shows the route's page, unless the user is a plain member of its server and the page is not theirs. */
export function MemberGate({ serverId, children }: { serverId: string | undefined; children: ReactNode }) {
  const entry = useServerEntry(serverId ?? '');
  const page = useMatch('/server/:serverId/:page/*')?.params.page;
  // The bare /server/{id} redirects to the dashboard, which the gate then answers.
  if (!serverId || entry?.access !== 'member' || page === undefined || MEMBER_PAGES.includes(page)) return children;
  return <MembersPagesOnly server={entry} />;
}
