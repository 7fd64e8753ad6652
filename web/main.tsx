// The dashboard's entry: the session check, theme, router, toasts. What only signed-in pages
// need (the query cache, zod, tooltips, the shell) loads with them (see routes.tsx), and the
// toasts' code with the first toast (ToastRegion), so the login page stays small.
import './styles.css';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { unstable_HistoryRouter as HistoryRouter } from 'react-router-dom';
import { checkSession } from './api/session';
import { ToastRegion } from './components/toast-region';
import { createGuardedHistory } from './guarded-history';
import { AppRoutes } from './routes';
import { showPendingToast } from './state/toasts';
import { initTheme } from './state/ui';
import { confirmLeaving, guardUnload, leavesUnsavedChanges } from './state/unsaved';

// The page's Content-Security-Policy admits style elements carrying this nonce only; the UI
// library's scroll lock (dialogs, menus) adds one, through get-nonce.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce) setNonce(nonce);

// Who is signed in decides every screen: ask before React renders anything.
void checkSession();
initTheme();
showPendingToast();

// A page with unsaved changes asks before it is left: links, back and forward through the
// router's history, a reload or a closed tab through the browser's own question.
const history = createGuardedHistory({ holds: leavesUnsavedChanges, ask: confirmLeaving });
guardUnload();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <HistoryRouter history={history}>
      <AppRoutes />
    </HistoryRouter>
    <ToastRegion />
  </StrictMode>,
);
