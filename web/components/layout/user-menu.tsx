// The header's user menu (spec section 2): avatar or initials, name#discriminator,
// Profile, Settings, theme, Logout and Sign out everywhere.
import { useSignals } from '@preact/signals-react/runtime';
import { ChevronDown, LogOut, MonitorX, Moon, Settings, Sun, User } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { logout } from '../../api/auth';
import { currentServerId, serverPath } from '../../state/server';
import { displayDiscriminator, sessionUser } from '../../state/session';
import { theme, toggleTheme } from '../../state/ui';
import { confirmLeaving, forgetUnsavedChanges } from '../../state/unsaved';
import { UserAvatar } from '../user-avatar';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../ui/dropdown-menu';

/** Settings on the current server route, else the last chosen server's, else the server picker. */
function settingsTarget(routeServerId: string | undefined, lastServerId: string | null): string {
  const serverId = routeServerId ?? lastServerId;
  return serverId ? serverPath(serverId, 'settings') : '/servers';
}

/** The avatar button and its menu. */
export function UserMenu({ serverId }: { serverId: string | undefined }) {
  useSignals();
  const navigate = useNavigate();
  const user = sessionUser.value;
  const username = user?.username ?? 'User';
  const discriminator = displayDiscriminator(user?.discriminator);
  const dark = theme.value === 'dark';
  // Unsaved changes are asked about before the session ends, not after (the forms go with it).
  const signOut = async (everywhere: boolean) => {
    if (!(await confirmLeaving())) return;
    if (!(await logout({ everywhere }))) return;
    forgetUnsavedChanges();
    navigate('/login', { replace: true });
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="user-button" aria-label={`Account menu for ${username}`}>
        <UserAvatar user={user} />
        <span className="user-button-name">{username}</span>
        <ChevronDown size={16} aria-hidden="true" className="user-button-chevron" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel className="menu-label">
          <span className="menu-label-name">{username}</span>
          <span className="menu-label-tag">#{discriminator}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/dashboard">
            <User size={16} aria-hidden="true" /> Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={settingsTarget(serverId, currentServerId.value)}>
            <Settings size={16} aria-hidden="true" /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={toggleTheme}>
          {dark ? <Sun size={16} aria-hidden="true" /> : <Moon size={16} aria-hidden="true" />}
          {dark ? 'Light theme' : 'Dark theme'}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem className="menu-item-danger" onSelect={() => void signOut(false)}>
          <LogOut size={16} aria-hidden="true" /> Logout
        </DropdownMenuItem>
        <DropdownMenuItem className="menu-item-danger" onSelect={() => void signOut(true)}>
          <MonitorX size={16} aria-hidden="true" /> Sign out everywhere
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
