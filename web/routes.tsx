// The route table of spec section 2 behind the auth gate. The signed-in half of the table
// (./signed-in-routes) is a chunk of its own, as is every other page: with the query cache, zod
// and the signed-in shell, it loads only for a signed-in user. The login page, where every
// visitor lands first, comes with the entry (index.html preloads it) rather than one more round
// trip after the session check.
import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { checkSession, sessionAnswer } from './api/session';
import { LoadingScreen } from './components/loading-screen';
import Login from './pages/login';

const SignedInRoutes = lazy(() => import('./signed-in-routes'));
const AuthCallback = lazy(() => import('./pages/auth-callback'));
const TestAuth = lazy(() => import('./pages/test-auth'));
const AppealSignIn = lazy(() => import('./features/appeals/appeal-sign-in'));

/** Delay before re-checking the user after a #login-success redirect (spec section 9). */
const LOGIN_SUCCESS_RECHECK_MS = 100;

/** Routes for a visitor: any path other than those below shows the login page. */
function SignedOutRoutes() {
  return (
    <Routes>
      <Route path="/auth/callback" element={<AuthCallback />} />
      <Route path="/test-auth" element={<TestAuth />} />
      <Route path="/appeal/:guildId/:userId" element={<AppealSignIn />} />
      <Route path="*" element={<Login />} />
    </Routes>
  );
}

/**
 * The auth gate: 'Loading dashboard...' until GET /api/auth/me answers (main.tsx asks it first
 * thing), then one of the two route tables. Any failure other than 401 (server down) also leaves
 * the visitor signed out; so does a user that fails the schema check (see signed-in-routes).
 */
export function AppRoutes() {
  useSignals();
  const answer = sessionAnswer.value;
  const { hash } = useLocation();

  // After a mock login the page lands on /dashboard#login-success: clear the hash, check again.
  useEffect(() => {
    if (hash !== '#login-success') return;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    const timer = window.setTimeout(() => void checkSession(), LOGIN_SUCCESS_RECHECK_MS);
    return () => window.clearTimeout(timer);
  }, [hash]);

  if (answer.state === 'checking') return <LoadingScreen text="Loading dashboard..." />;
  return (
    <Suspense fallback={<LoadingScreen text="Loading dashboard..." />}>
      {answer.state === 'answered' ? <SignedInRoutes claimed={answer.body} signedOut={<SignedOutRoutes />} /> : <SignedOutRoutes />}
    </Suspense>
  );
}
