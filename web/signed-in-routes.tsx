// The signed-in half of the route table (spec section 2) and what only a signed-in user needs:
// the query cache, tooltips, the user's schema check and the shell (AppLayout, which nearly every
// signed-in page shows, so it comes in this chunk rather than one more round trip later). Its own
// chunk (see routes.tsx); every page in it is a chunk too.
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, useLayoutEffect, useMemo, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { queryClient } from './api/client';
import { currentUserFrom } from './api/queries';
import AppLayout from './components/layout/app-layout';
import { TooltipProvider } from './components/ui/tooltip';
import { FEATURE_PAGES } from './features';
import { FEATURES, TRANSACTIONS } from './navigation';
import { GLOBAL_PAGE_LOADERS } from './page-loaders';
import { sessionUser } from './state/session';

const AuthCallback = lazy(() => import('./pages/auth-callback'));
const TestAuth = lazy(() => import('./pages/test-auth'));
const NotFound = lazy(() => import('./pages/not-found'));
const Dashboard = lazy(GLOBAL_PAGE_LOADERS.dashboard);
const Servers = lazy(GLOBAL_PAGE_LOADERS.servers);
const ServerManagement = lazy(GLOBAL_PAGE_LOADERS.serverManagement);
const AddBot = lazy(GLOBAL_PAGE_LOADERS.addBot);
const ServerDashboard = lazy(GLOBAL_PAGE_LOADERS.serverDashboard);
const FeaturePage = lazy(() => import('./pages/feature-page'));
const LastServerRedirect = lazy(() => import('./pages/last-server-redirect'));
const ModerationMember = lazy(() => import('./features/moderation/member-page'));
const AppealPage = lazy(() => import('./features/appeals/appeal-page'));

/** Props of SignedInRoutes. */
export interface SignedInRoutesProps {
  /** GET /api/auth/me's 200 body, not yet schema-checked. */
  claimed: unknown;
  /** What to show instead when the body is no user (the signed-out routes). */
  signedOut: ReactNode;
}

/** The user `claimed` names, or null when it fails the schema check (a contract drift) or has no id. */
function checkedUser(claimed: unknown) {
  try {
    const user = currentUserFrom({ state: 'answered', body: claimed });
    return user?.id ? user : null;
  } catch (error) {
    console.error('GET /api/auth/me answered something that is not a user', error);
    return null;
  }
}

/** Routes for a signed-in user, once GET /api/auth/me's answer passes the schema. */
export default function SignedInRoutes({ claimed, signedOut }: SignedInRoutesProps) {
  const user = useMemo(() => checkedUser(claimed), [claimed]);

  // The header, menus and pages read the user from the signal; a re-check that signs the user
  // out (a 401) unmounts these routes and clears it.
  useLayoutEffect(() => {
    sessionUser.value = user;
    return () => {
      sessionUser.value = null;
    };
  }, [user]);

  if (!user) return signedOut;
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <Routes>
          <Route path="/auth/callback" element={<AuthCallback />} />
          <Route path="/test-auth" element={<TestAuth />} />
          <Route path="/login" element={<Navigate to="/dashboard" replace />} />
          {/* A banned member's appeal: a page of its own, outside the server pages' shell. */}
          <Route path="/appeal/:guildId/:userId" element={<AppealPage />} />
          <Route element={<AppLayout />}>
            <Route index element={<Navigate to="/dashboard" replace />} />
            <Route path="dashboard" element={<Dashboard />} />
            <Route path="servers" element={<Servers />} />
            <Route path="server-management" element={<ServerManagement />} />
            <Route path="add-bot" element={<AddBot />} />
            <Route path="server/:serverId">
              <Route index element={<Navigate to="dashboard" replace />} />
              <Route path="dashboard" element={<ServerDashboard />} />
              <Route path="moderation/members/:userId" element={<ModerationMember />} />
              {[...FEATURES, TRANSACTIONS].map((feature) => {
                const Page = FEATURE_PAGES[feature.slug];
                return <Route key={feature.slug} path={feature.slug} element={Page ? <Page /> : <FeaturePage slug={feature.slug} />} />;
              })}
            </Route>
            {FEATURES.map((feature) => (
              <Route key={feature.slug} path={feature.slug} element={<LastServerRedirect slug={feature.slug} />} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </TooltipProvider>
    </QueryClientProvider>
  );
}
