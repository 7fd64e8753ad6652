// The server switcher atop the sidebar (as in MEE6, Dyno and Carl-bot): the current server's icon
// and name, opening a menu of the user's servers plus 'My Servers'. A Radix menu: arrow keys,
// typeahead, Escape and focus return come with it.
import { Check, ChevronsUpDown, Server as ServerGlyph } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { Server } from '../../../src/shared/auth';
import { useCommunities, useServerEntry, useServers } from '../../api/queries';
import { serverHome } from '../../state/server';
import { ServerIcon } from '../server-icon';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu';

/** The servers the user can open here: managed ones with the bot, then their communities. */
function useOpenableServers(): { servers: Server[]; loading: boolean } {
  const managed = useServers();
  const communities = useCommunities();
  const servers = [...(managed.data ?? []).filter((server) => server.hasBot), ...(communities.data ?? [])];
  return { servers, loading: managed.isPending || communities.isPending };
}

/** The switcher; without a server it offers to choose one. */
export function ServerSwitcher({ serverId }: { serverId: string | undefined }) {
  const current = useServerEntry(serverId ?? '');
  const { servers, loading } = useOpenableServers();
  const name = serverId ? (current?.name ?? 'Loading server…') : 'Choose a server';

  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="server-switcher" data-testid="server-switcher">
        {current ? (
          <ServerIcon id={current.id} name={current.name} icon={current.icon} size="sm" />
        ) : (
          <span className="server-switcher-glyph" aria-hidden="true">
            <ServerGlyph size={16} />
          </span>
        )}
        <span className="server-switcher-text">
          <span className="server-switcher-name" title={name}>
            {name}
          </span>
          <span className="server-switcher-hint">Switch server</span>
        </span>
        <ChevronsUpDown size={16} aria-hidden="true" className="server-switcher-chevron" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="server-menu">
        <DropdownMenuLabel className="menu-heading">Your servers</DropdownMenuLabel>
        {servers.map((server) => {
          const isCurrent = server.id === serverId;
          return (
            <DropdownMenuItem key={server.id} asChild textValue={server.name}>
              <Link to={serverHome(server.id, server.access)} aria-current={isCurrent ? 'page' : undefined}>
                <ServerIcon id={server.id} name={server.name} icon={server.icon} size="sm" />
                <span className="server-menu-name">{server.name}</span>
                {isCurrent ? <Check size={16} aria-hidden="true" className="server-menu-check" /> : null}
              </Link>
            </DropdownMenuItem>
          );
        })}
        {servers.length === 0 ? <p className="menu-note">{loading ? 'Loading your servers…' : 'No server with the bot yet.'}</p> : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/servers">
            <ServerGlyph size={16} aria-hidden="true" /> My Servers
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
