// The sidebar's two modes (spec section 2): global pages without a server id, the server's
// feature pages with one, under the server switcher. The same list renders in the desktop aside
// and the mobile drawer.
import { Link, useLocation } from 'react-router-dom';
import { useServerEntry } from '../../api/queries';
import { FEATURES, GLOBAL_NAV, MEMBER_PAGES, SERVER_DASHBOARD, type NavItem } from '../../navigation';
import { prefetchRoute } from '../../route-prefetch';
import { serverPath } from '../../state/server';
import { cn } from '../ui/cn';
import { ServerSwitcher } from './server-switcher';

/** The server-mode entries: Dashboard, then each feature page; a plain member sees only their own pages. */
function serverNav(serverId: string, memberOnly: boolean): NavItem[] {
  const pages = memberOnly ? FEATURES.filter((page) => MEMBER_PAGES.includes(page.slug)) : [SERVER_DASHBOARD, ...FEATURES];
  return pages.map((page) => ({ label: page.label, to: serverPath(serverId, page.slug), icon: page.icon }));
}

/** True when `item` is the current page; the root and the bare server path count as its dashboard. */
function isActive(item: NavItem, pathname: string, serverId: string | undefined): boolean {
  if (pathname === item.to) return true;
  if (!serverId || item.to !== serverPath(serverId, SERVER_DASHBOARD.slug)) return false;
  return pathname === '/' || pathname === `/server/${serverId}` || pathname === `/server/${serverId}/`;
}

/** Props of Sidebar. */
export interface SidebarProps {
  serverId: string | undefined;
}

/** The server switcher and the navigation list. */
export function Sidebar({ serverId }: SidebarProps) {
  const { pathname } = useLocation();
  const entry = useServerEntry(serverId ?? '');
  const items = serverId ? serverNav(serverId, entry?.access === 'member') : GLOBAL_NAV;
  return (
    <nav className="sidebar-nav" aria-label={serverId ? 'Server' : 'Main'}>
      <ServerSwitcher serverId={serverId} />
      <p className="sidebar-heading">{serverId ? 'Server' : 'Navigation'}</p>
      <ul>
        {items.map((item) => {
          const active = isActive(item, pathname, serverId);
          const Icon = item.icon;
          return (
            <li key={item.to}>
              {/* Pointed at, focused or touched: the page's code starts loading before the click. */}
              <Link
                to={item.to}
                className={cn('nav-link', active && 'nav-link-active')}
                aria-current={active ? 'page' : undefined}
                onMouseEnter={() => prefetchRoute(item.to)}
                onFocus={() => prefetchRoute(item.to)}
                onTouchStart={() => prefetchRoute(item.to)}
              >
                <Icon size={18} aria-hidden="true" />
                <span>{item.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
