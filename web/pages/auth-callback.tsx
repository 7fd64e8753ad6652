// /auth/callback: the OAuth authorize page sends the browser here with ?code&state (or ?error).
// The code is exchanged once, then a full redirect loads the dashboard signed in.
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { SIGN_IN_MESSAGES, signInSuccessMessage } from '../../src/shared/auth';
import { safeRedirectPath } from '../../src/shared/redirect';
import { exchangeDiscordCode } from '../api/auth';
import { botName } from '../api/session';
import { LoadingScreen } from '../components/loading-screen';
import { toast, toastAfterRedirect } from '../state/toasts';

/** Codes already sent: a code is single use, and StrictMode runs effects twice in development. */
const exchangedCodes = new Set<string>();

/** The callback screen: an 'Authenticating...' spinner while the code is exchanged. */
export default function AuthCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const state = params.get('state') ?? '';
  const error = params.get('error');

  useEffect(() => {
    const fail = (message: { title: string; description: string }) => {
      toast({ ...message, variant: 'destructive' });
      navigate('/login', { replace: true });
    };
    if (error) return fail(SIGN_IN_MESSAGES.providerError);
    if (!code) return fail(SIGN_IN_MESSAGES.missingCode);
    if (exchangedCodes.has(code)) return;
    exchangedCodes.add(code);

    exchangeDiscordCode(code, state)
      .then(({ user, redirectTo }) => {
        // The toast must outlive the full redirect below, so it waits in sessionStorage.
        // The bot's name from GET /api/meta when this page has read it, else the product's name.
        toastAfterRedirect(signInSuccessMessage(botName.peek(), user.username));
        window.location.replace(safeRedirectPath(redirectTo));
      })
      .catch((reason: unknown) => {
        console.error('Discord sign-in failed', reason);
        fail(SIGN_IN_MESSAGES.exchangeFailed);
      });
  }, [code, state, error, navigate]);

  return <LoadingScreen text="Authenticating..." />;
}
