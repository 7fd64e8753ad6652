// The signed-in frame: header, sidebar (an off-canvas drawer under 768 px), the
// 'Back to Server' button and the page outlet with a skeleton while a page's code loads. It
// checks the route's server id against the user's servers and moves focus to each new page.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useSignals } from '@preact/signals-react/runtime';
import { ArrowLeft, X } from 'lucide-react';
import { Suspense, useEffect, useRef } from 'react';
import { Link, Outlet, useLocation, useMatch } from 'react-router-dom';
import { Snowflake } from '../../../src/shared/auth';
import { useLiveUpdates } from '../../api/live';
import { useServerEntry, useServerLookup } from '../../api/queries';
import { ServerNotFound, type ServerProblem } from '../../pages/server-not-found';
import { chooseServer, serverHome } from '../../state/server';
import { drawerOpen } from '../../state/ui';
import { PageSkeleton } from '../page-skeleton';
import { ServerQuestion } from '../server-question';
import { buttonClass } from '../ui/button';
import { Header } from './header';
import { MemberGate } from './member-gate';
import { Sidebar } from './sidebar';
import { MOBILE_QUERY, useMediaQuery } from './use-media-query';
import { useRouteFocus } from './use-route-focus';

/**
 * The mobile navigation drawer: overlay, close button, the sidebar; Escape and overlay close it.
 * Closed by Escape or its buttons it hands focus back to the menu button; closed because a link in
 * it was followed, focus goes to the new page instead (useRouteFocus).
 */
function Drawer({ serverId, closedByNavigation }: { serverId: string | undefined; closedByNavigation: () => boolean }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="overlay drawer-overlay" data-testid="drawer-overlay" />
      <DialogPrimitive.Content
        className="drawer"
        aria-describedby={undefined}
        data-testid="drawer"
        onCloseAutoFocus={(event) => {
          if (closedByNavigation()) event.preventDefault();
        }}
      >
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

/** 'Back to Server' on a server's pages other than where it opens: its dashboard, or a plain member's rank and inventory. */
function BackToServer({ serverId, pathname }: { serverId: string | undefined; pathname: string }) {
  const access = useServerEntry(serverId ?? '')?.access;
  if (!serverId) return null;
  const home = serverHome(serverId, access);
  if (pathname === home) return null;
  return (
    <Link to={home} className={buttonClass('ghost', 'sm', 'back-button')}>
      <ArrowLeft size={16} aria-hidden="true" /> Back to Server
    </Link>
  );
}

/** The route's server id, checked against the user's servers. */
interface RouteServer {
  /** The id for the header and sidebar; undefined without one or with a problem. */
  serverId: string | undefined;
  /** Set when the id is no Discord id, none of the user's servers, or theirs without the bot. */
  problem: ServerProblem | undefined;
  /** True once the server is found among the user's servers with the bot. */
  confirmed: boolean;
}

/** Checks the route's server id; while the lists load the page shows as usual. */
function useRouteServer(routeServerId: string | undefined): RouteServer {
  const valid = routeServerId !== undefined && Snowflake.safeParse(routeServerId).success;
  const lookup = useServerLookup(valid ? routeServerId : '');
  if (routeServerId === undefined) return { serverId: undefined, problem: undefined, confirmed: false };
  if (!valid) return { serverId: undefined, problem: { kind: 'invalid', serverId: routeServerId }, confirmed: false };
  if (lookup.status === 'missing') return { serverId: undefined, problem: { kind: 'missing', serverId: routeServerId }, confirmed: false };
  if (lookup.status === 'found' && !lookup.entry.hasBot) return { serverId: undefined, problem: { kind: 'no-bot', server: lookup.entry }, confirmed: false };
  return { serverId: routeServerId, problem: undefined, confirmed: lookup.status === 'found' };
}

/** The layout route element for every signed-in screen. */
export default function AppLayout() {
  useSignals();
  const { pathname } = useLocation();
  const routeServerId = useMatch('/server/:serverId/*')?.params.serverId;
  const { serverId, problem, confirmed } = useRouteServer(routeServerId);
  const mobile = useMediaQuery(MOBILE_QUERY);
  const main = useRef<HTMLElement>(null);
  const closedByNavigation = useRef(false);
  /** Whether the drawer just closed because a link in it was followed (answered once). */
  const takeClosedByNavigation = () => {
    const was = closedByNavigation.current;
    closedByNavigation.current = false;
    return was;
  };
  useRouteFocus(main);
  // One live stream for the server on screen, shared by its pages (web/api/live.ts).
  useLiveUpdates(confirmed ? serverId : undefined);

  // Only a server the user can open becomes the current one (the unprefixed pages and the user
  // menu's Settings go there): an id typed into the address bar is not remembered.
  useEffect(() => {
    if (serverId && confirmed) chooseServer(serverId);
  }, [serverId, confirmed]);

  // A navigation (a link tapped in the drawer) closes the drawer.
  useEffect(() => {
    if (drawerOpen.peek()) closedByNavigation.current = true;
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
          <main id="main" className="main" tabIndex={-1} ref={main}>
            {problem ? (
              <ServerNotFound problem={problem} />
            ) : (
              <>
                <BackToServer serverId={serverId} pathname={pathname} />
                <Suspense fallback={<PageSkeleton />}>
                  <MemberGate serverId={serverId}>
                    <Outlet />
                  </MemberGate>
                </Suspense>
              </>
            )}
          </main>
        </div>
      </div>
      {mobile ? <Drawer serverId={serverId} closedByNavigation={takeClosedByNavigation} /> : null}
      <ServerQuestion />
    </DialogPrimitive.Root>
  );
}
