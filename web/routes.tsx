// The route table of spec section 2 behind the auth gate. Every page is its own chunk.
import { lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useCurrentUser } from './api/queries';
import { LoadingScreen } from './components/LoadingScreen';
import { FEATURE_PAGES } from './features';
import { FEATURES, TRANSACTIONS } from './navigation';
import { sessionUser } from './state/session';

const AppLayout = lazy(() => import('./components/layout/AppLayout'));
const Login = lazy(() => import('./pages/Login'));
const AuthCallback = lazy(() => import('./pages/AuthCallback'));
const TestAuth = lazy(() => import('./pages/TestAuth'));
const NotFound = lazy(() => import('./pages/NotFound'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Servers = lazy(() => import('./pages/Servers'));
const ServerManagement = lazy(() => import('./pages/ServerManagement'));
const AddBot = lazy(() => import('./pages/AddBot'));
const ServerDashboard = lazy(() => import('./pages/ServerDashboard'));
const FeaturePage = lazy(() => import('./pages/FeaturePage'));
const LastServerRedirect = lazy(() => import('./pages/LastServerRedirect'));

/** Delay before re-checking the user after a #login-success redirect (spec section 9). */
const LOGIN_SUCCESS_RECHECK_MS = 100;

/** Routes for a signed-in user. */
function SignedInRoutes() {
  return (
    <Routes>
      <Route path="/auth/callback" element={<AuthCallback />} />
      <Route path="/test-auth" element={<TestAuth />} />
      <Route path="/login" element={<Navigate to="/dashboard" replace />} />
      <Route element={<AppLayout />}>
        <Route index element={<Navigate to="/dashboard" replace />} />
        <Route path="dashboard" element={<Dashboard />} />
        <Route path="servers" element={<Servers />} />
        <Route path="server-management" element={<ServerManagement />} />
        <Route path="add-bot" element={<AddBot />} />
        <Route path="server/:serverId">
          <Route index element={<Navigate to="dashboard" replace />} />
          <Route path="dashboard" element={<ServerDashboard />} />
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
  );
}

/** Routes for a visitor: any path other than the two below shows the login page. */
function SignedOutRoutes() {
  return (
    <Routes>
      <Route path="/auth/callback" element={<AuthCallback />} />
      <Route path="/test-auth" element={<TestAuth />} />
      <Route path="*" element={<Login />} />
    </Routes>
  );
}

/** The auth gate: 'Loading dashboard...' while /api/auth/me loads, then one of the two route tables. */
export function AppRoutes() {
  const me = useCurrentUser();
  const { hash } = useLocation();
  const { refetch } = me;

  // After a mock login the page lands on /dashboard#login-success: clear the hash, check again.
  useEffect(() => {
    if (hash !== '#login-success') return;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    const timer = window.setTimeout(() => void refetch(), LOGIN_SUCCESS_RECHECK_MS);
    return () => window.clearTimeout(timer);
  }, [hash, refetch]);

  // Any failure other than 401 (server down) also leaves the visitor signed out.
  const user = me.data ?? null;
  useLayoutEffect(() => {
    sessionUser.value = user;
  }, [user]);

  if (me.isPending) return <LoadingScreen text="Loading dashboard..." />;
  return (
    <Suspense fallback={<LoadingScreen text="Loading dashboard..." />}>{user?.id ? <SignedInRoutes /> : <SignedOutRoutes />}</Suspense>
  );
}
