// Who is signed in, as the first screen needs to know it: GET /api/auth/me with plain fetch, and
// GET /api/meta's bot name for the signed-out pages. Nothing here loads zod or the query cache, so
// /login loads neither. The answer's schema check waits for the code that shows a user (the
// signed-in app, the test-auth page: currentUserFrom in ./queries), which loads both anyway.
import { signal } from '@preact/signals-react';
import { PRODUCT_NAME } from '../../src/shared/product';
import { sessionUser } from '../state/session';

/** GET /api/auth/me's answer, before its schema check. */
export type SessionAnswer =
  /** Not answered yet. */
  | { state: 'checking' }
  /** 200: the body claims a user (unchecked). */
  | { state: 'answered'; body: unknown }
  /** 401: nobody is signed in. */
  | { state: 'signed-out' }
  /** Another status (`text`: the body, or the status text), or no answer at all (status 0, `error`). */
  | { state: 'failed'; status: number; text: string; error?: unknown };

/** The latest answer; the auth gate (web/routes.tsx) shows the signed-in or the signed-out routes from it. */
export const sessionAnswer = signal<SessionAnswer>({ state: 'checking' });

/**
 * Asks the server once. index.html preloads this request while the scripts load; the fetch
 * matches the preload (URL, credentials), so the page's first check is answered by it.
 */
async function askServer(): Promise<SessionAnswer> {
  try {
    const response = await fetch('/api/auth/me', { credentials: 'include', headers: { accept: 'application/json' } });
    if (response.status === 401) return { state: 'signed-out' };
    const text = await response.text();
    if (!response.ok) return { state: 'failed', status: response.status, text: text || response.statusText };
    return { state: 'answered', body: text ? (JSON.parse(text) as unknown) : null };
  } catch (error) {
    return { state: 'failed', status: 0, text: error instanceof Error ? error.message : String(error), error };
  }
}

/**
 * Asks GET /api/auth/me (again) and publishes the answer. As a cached query would, a re-check that
 * fails (no answer, a 5xx) keeps a user already known; a 401 signs them out.
 */
export function checkSession(): Promise<SessionAnswer> {
  return askServer().then((answer) => {
    const previous = sessionAnswer.peek();
    if (answer.state === 'failed' && previous.state === 'answered') return previous;
    sessionAnswer.value = answer;
    return answer;
  });
}

/** Forgets the user after a logout: the gate shows the signed-out routes. */
export function endSession(): void {
  sessionAnswer.value = { state: 'signed-out' };
  sessionUser.value = null;
}

/** Where 'Continue with Discord' sends the browser; the server makes the OAuth state and redirects. */
export function discordLoginUrl(redirect: string): string {
  return `/api/auth/discord/login?${new URLSearchParams({ redirect })}`;
}

/**
 * The bot's name for the signed-out pages: PRODUCT_NAME until GET /api/meta answers (see
 * loadBotName). The signed-in pages read the whole answer, schema-checked, through useMeta.
 */
export const botName = signal(PRODUCT_NAME);
/** GET /api/meta's body as first asked on this page (null when that failed), see metaAnswer. */
let metaRequest: Promise<unknown> | undefined;

/**
 * GET /api/meta's body, asked once per page: loadBotName and useMeta's first read share the one
 * request (two were sent, one more request before a signed-in page showed). Null when it failed.
 */
export function metaAnswer(): Promise<unknown> {
  metaRequest ??= fetch('/api/meta', { credentials: 'include', headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<unknown>) : null))
    .catch(() => null);
  return metaRequest;
}

/** Reads the bot's name from GET /api/meta, once per page; keeps PRODUCT_NAME when that fails. */
export function loadBotName(): void {
  void metaAnswer().then((meta) => {
    const name = typeof meta === 'object' && meta !== null ? (meta as { botName?: unknown }).botName : undefined;
    if (typeof name === 'string') botName.value = name;
  });
}
