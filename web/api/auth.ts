// Sign-in and sign-out calls, and what they do to the cache.
import { SignInResultSchema, type MockLoginInput, type SignInResult } from '../../src/shared/auth';
import { sessionUser } from '../state/session';
import { apiRequest, queryClient } from './client';
import { queryKeys } from './queries';

/** Where 'Continue with Discord' sends the browser; the server makes the OAuth state and redirects. */
export function discordLoginUrl(redirect: string): string {
  return `/api/auth/discord/login?${new URLSearchParams({ redirect })}`;
}

/** Accepts only same-origin paths ("/x", not "//host" or "/\\host"); anything else becomes '/'. */
export function safeRedirectPath(path: string | null | undefined): string {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
  return path;
}

/** Exchanges the authorize redirect's code and state for a session. */
export async function exchangeDiscordCode(code: string, state: string): Promise<SignInResult> {
  return SignInResultSchema.parse(await apiRequest('POST', '/api/auth/discord/callback', { code, state }));
}

/** Signs in as a made-up user (sandbox mode only; 404 otherwise). */
export async function mockLogin(input: MockLoginInput): Promise<SignInResult> {
  return SignInResultSchema.parse(await apiRequest('POST', '/api/auth/mock-login', input));
}

/**
 * Ends the session and forgets every cached read that belonged to it.
 * Returns false when the server refused; the failure is only logged (spec section 8).
 */
export async function logout(): Promise<boolean> {
  try {
    await apiRequest('POST', '/api/auth/logout');
  } catch (error) {
    console.error('Logout failed', error);
    return false;
  }
  const publicKeys = new Set<unknown>([queryKeys.meta[0], queryKeys.health[0]]);
  queryClient.removeQueries({ predicate: (query) => !publicKeys.has(query.queryKey[0]) });
  queryClient.setQueryData(queryKeys.me, null);
  sessionUser.value = null;
  return true;
}
