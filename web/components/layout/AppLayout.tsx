// The signed-in frame: header, sidebar (an off-canvas drawer under 768 px), the
// 'Back to Server' button and the page outlet with a skeleton while a page's code loads.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useSignals } from '@preact/signals-react/runtime';
import { ArrowLeft, X } from 'lucide-react';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation, useMatch } from 'react-router-dom';
import { chooseServer, serverPath } from '../../state/server';
import { drawerOpen } from '../../state/ui';
import { PageSkeleton } from '../PageSkeleton';
import { buttonClass } from '../ui/button';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { MOBILE_QUERY, useMediaQuery } from './useMediaQuery';

/** The mobile navigation drawer: overlay, close button, the sidebar; Escape and overlay close it. */
function Drawer({ serverId }: { serverId: string | undefined }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="overlay drawer-overlay" data-testid="drawer-overlay" />
      <DialogPrimitive.Content className="drawer" aria-describedby={undefined} data-testid="drawer">
        <div className="drawer-header">
          <DialogPrimitive.Title className="drawer-title">Menu</DialogPrimitive.Title>
          <DialogPrimitive.Close className="icon-close drawer-close" aria-label="Close navigation menu">
            <X size={20} aria-hidden="true" />
          </DialogPrimitive.Close>
        </div>
        <Sidebar serverId={serverId} />
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** 'Back to Server' on server pages other than the server's dashboard. */
function BackToServer({ serverId, pathname }: { serverId: string | undefined; pathname: string }) {
  if (!serverId) return null;
  const dashboard = serverPath(serverId, 'dashboard');
  if (pathname === dashboard) return null;
  return (
    <Link to={dashboard} className={buttonClass('ghost', 'sm', 'back-button')}>
      <ArrowLeft size={16} aria-hidden="true" /> Back to Server
    </Link>
  );
}

/** The layout route element for every signed-in screen. */
export default function AppLayout() {
  useSignals();
  const { pathname } = useLocation();
  const serverId = useMatch('/server/:serverId/*')?.params.serverId;
  const mobile = useMediaQuery(MOBILE_QUERY);

  useEffect(() => {
    if (serverId) chooseServer(serverId);
  }, [serverId]);

  // A navigation (a link tapped in the drawer) closes the drawer.
  useEffect(() => {
    drawerOpen.value = false;
  }, [pathname]);

  return (
    <DialogPrimitive.Root open={mobile && drawerOpen.value} onOpenChange={(open) => (drawerOpen.value = open)}>
      <div className="app">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Header serverId={serverId} />
        <div className="app-body">
          {mobile ? null : (
            <aside className="sidebar">
              <Sidebar serverId={serverId} />
            </aside>
          )}
          <main id="main" className="main" tabIndex={-1}>
            <BackToServer serverId={serverId} pathname={pathname} />
            <Suspense fallback={<PageSkeleton />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
      {mobile ? <Drawer serverId={serverId} /> : null}
    </DialogPrimitive.Root>
  );
}
