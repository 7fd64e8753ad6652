// The dashboard's entry: the session check, theme, router, toasts. What only signed-in pages
// need (the query cache, zod, tooltips, the shell) loads with them (see routes.tsx), and the
// toasts' code with the first toast (ToastRegion), so the login page stays small.
import './styles.css';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { checkSession } from './api/session';
import { ToastRegion } from './components/toast-region';
import { AppRoutes } from './routes';
import { showPendingToast } from './state/toasts';
import { initTheme } from './state/ui';

// The page's Content-Security-Policy admits style elements carrying this nonce only; the UI
// library's scroll lock (dialogs, menus) adds one, through get-nonce.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
if (nonce) setNonce(nonce);

// Who is signed in decides every screen: ask before React renders anything.
void checkSession();
initTheme();
showPendingToast();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
    <ToastRegion />
  </StrictMode>,
);
