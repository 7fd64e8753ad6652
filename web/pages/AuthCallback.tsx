// /auth/callback: the OAuth authorize page sends the browser here with ?code&state (or ?error).
// The code is exchanged once, then a full redirect loads the dashboard signed in.
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { SIGN_IN_MESSAGES, signInSuccessMessage } from '../../src/shared/auth';
import { PRODUCT_NAME } from '../../src/shared/meta';
import { safeRedirectPath } from '../../src/shared/redirect';
import { exchangeDiscordCode } from '../api/auth';
import { queryClient } from '../api/client';
import { queryKeys } from '../api/queries';
import { LoadingScreen } from '../components/LoadingScreen';
import { toast, toastAfterRedirect } from '../state/toasts';

/** Codes already sent: a code is single use, and StrictMode runs effects twice in development. */
const exchangedCodes = new Set<string>();

/** The bot's name for the welcome toast, from the cached meta when it has loaded. */
function botName(): string {
  const meta = queryClient.getQueryData<{ botName?: unknown }>(queryKeys.meta);
  return typeof meta?.botName === 'string' ? meta.botName : PRODUCT_NAME;
}

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
        toastAfterRedirect(signInSuccessMessage(botName(), user.username));
        window.location.replace(safeRedirectPath(redirectTo));
      })
      .catch((reason: unknown) => {
        console.error('Discord sign-in failed', reason);
        fail(SIGN_IN_MESSAGES.exchangeFailed);
      });
  }, [code, state, error, navigate]);

  return <LoadingScreen text="Authenticating..." />;
}
