// The top bar: menu button (mobile), logo and product title, the server label,
// the Online indicator, a theme switch and the user menu.
import { useSignals } from '@preact/signals-react/runtime';
import { Bot, Menu, Moon, Sun } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../src/shared/product';
import { useMeta, useServerEntry, useServers } from '../../api/queries';
import { useProductTitle } from '../use-document-title';
import { theme, toggleTheme } from '../../state/ui';
import { Button } from '../ui/button';
import { DialogTrigger } from '../ui/dialog';
import { Tooltip } from '../ui/tooltip';
import { OnlineIndicator } from './online-indicator';
import { UserMenu } from './user-menu';

/** The current server's name on server routes, else 'No server selected'. */
function ServerLabel({ serverId }: { serverId: string | undefined }) {
  const servers = useServers({ enabled: serverId !== undefined });
  // The managed servers, then the communities the user is a plain member of.
  const entry = useServerEntry(serverId ?? '');
  let text = 'No server selected';
  if (serverId) text = entry?.name ?? (servers.isPending ? 'Loading server…' : `Server ${serverId}`);
  return (
    <span className="server-label" data-testid="server-label" title={text}>
      {text}
    </span>
  );
}

/** A sun/moon button switching the colour theme. */
function ThemeButton() {
  useSignals();
  const dark = theme.value === 'dark';
  const label = dark ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Tooltip label={label} side="bottom">
      <Button variant="ghost" size="icon" aria-label={label} onClick={toggleTheme} className="theme-button">
        {dark ? <Sun size={18} aria-hidden="true" /> : <Moon size={18} aria-hidden="true" />}
      </Button>
    </Tooltip>
  );
}

/**
 * The dashboard header. Must sit inside the layout's drawer Dialog (the menu button is its trigger).
 * On a phone it shows the bot's name, or on a server's pages that server's name instead.
 */
export function Header({ serverId }: { serverId: string | undefined }) {
  const meta = useMeta();
  const botName = meta.data?.botName ?? PRODUCT_NAME;
  const title = useProductTitle();

  return (
    <header className={serverId ? 'header header-server' : 'header'}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="menu-button" aria-label="Open navigation menu">
          <Menu size={20} aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <Link to="/servers" className="brand" aria-label={`${title}: my servers`}>
        <span className="brand-logo">
          <Bot size={20} aria-hidden="true" />
        </span>
        <span className="brand-name">
          {botName}
          <span className="brand-suffix"> Dashboard</span>
        </span>
      </Link>
      <span className="header-divider" aria-hidden="true" />
      <ServerLabel serverId={serverId} />
      <div className="header-end">
        <OnlineIndicator />
        <ThemeButton />
        <UserMenu serverId={serverId} />
      </div>
    </header>
  );
}
