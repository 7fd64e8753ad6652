// Sign-in and sign-out calls, and what they do to the cache and the session
// ('Continue with Discord' is a plain link: discordLoginUrl in ./session).
import { SignInResultSchema, type MockLoginInput, type SignInResult } from '../../src/shared/auth';
import { apiRequest, queryClient } from './client';
import { queryKeys } from './queries';
import { endSession } from './session';

/** Exchanges the authorize redirect's code and state for a session. */
export async function exchangeDiscordCode(code: string, state: string): Promise<SignInResult> {
  return SignInResultSchema.parse(await apiRequest('POST', '/api/auth/discord/callback', { code, state }));
}

/** Signs in as a made-up user (sandbox mode only; 404 otherwise). */
export async function mockLogin(input: MockLoginInput): Promise<SignInResult> {
  return SignInResultSchema.parse(await apiRequest('POST', '/api/auth/mock-login', input));
}

/** Forgets every cached read that belonged to the session, keeping the public ones. */
function forgetSession(): void {
  const publicKeys = new Set<unknown>([queryKeys.meta[0], queryKeys.health[0]]);
  queryClient.removeQueries({ predicate: (query) => !publicKeys.has(query.queryKey[0]) });
  endSession();
}

/**
 * Ends this browser's session (`everywhere`: every session of the user, and the Discord grant)
 * and forgets what was cached for it. Returns false when the server refused; the failure is only
 * logged (spec section 8).
 */
export async function logout({ everywhere = false }: { everywhere?: boolean } = {}): Promise<boolean> {
  try {
    await apiRequest('POST', everywhere ? '/api/auth/logout-everywhere' : '/api/auth/logout');
  } catch (error) {
    console.error('Logout failed', error);
    return false;
  }
  forgetSession();
  return true;
}
