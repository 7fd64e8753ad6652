// The one way the dashboard talks to /api: same-origin fetch with the session cookie,
// JSON in and out, and errors whose message follows spec section 8 ("status: body").
import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { ApiErrorSchema, type ApiError } from '../../src/shared/http';
import type { ChangeMeanwhile } from '../../src/shared/versions';
import { formatRelative } from '../format';
import { askConfirmation } from '../state/confirmations';

/** A non-ok answer from /api; `message` is `${status}: ${body text or statusText}`. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  /** The HTTP status code. */
  readonly status: number;
  /** The parsed `{ error, message, fields? }` body, when the server sent one. */
  readonly body: ApiError | undefined;

  constructor(status: number, text: string, body: ApiError | undefined) {
    super(`${status}: ${text}`);
    this.status = status;
    this.body = body;
  }
}

/** The server's words for each field it refused (`fields` of a 400), or none for any other failure. */
export const fieldErrorsOf = (error: unknown): Record<string, string> => (error instanceof ApiRequestError ? (error.body?.fields ?? {}) : {});

/** True when `error` is an ApiRequestError with the given status. */
export function hasStatus(error: unknown, status: number): boolean {
  return error instanceof ApiRequestError && error.status === status;
}

/** False for a refusal (4xx): asking again gets the same answer, so no 'Try again' is offered. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500);
}

/** The server's human message for an error, falling back to the error's own message. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.body) return error.body.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The error for a non-ok answer: `text` is its body (or status text), parsed as `{ error, message }` when it is one. */
export function apiRequestError(status: number, text: string): ApiRequestError {
  let body: ApiError | undefined;
  try {
    const parsed = ApiErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) body = parsed.data;
  } catch {
    // Not JSON: the text alone is the message.
  }
  return new ApiRequestError(status, text, body);
}

/** Throws an ApiRequestError for a non-ok response; reads the body once. */
async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => '');
  throw apiRequestError(response.status, text || response.statusText);
}

/** The person backed out of a write the server asked them to confirm: nothing was sent again, nothing saved. */
export class ConfirmationDeclined extends Error {
  override name = 'ConfirmationDeclined';
  constructor() {
    super('Nothing was saved.');
  }
}

/**
 * The person chose to reload rather than save over changes made meanwhile: nothing was saved; the
 * page reads the current values again (useGuildMutation's `onReload`).
 */
export class StaleDeclined extends ConfirmationDeclined {
  override name = 'StaleDeclined';
}

/** One change made meanwhile, as a line of the dialog: "Alex changed Text multiplier from 1 to 1.7, 2 minutes ago". */
function changeLine(change: ChangeMeanwhile): string {
  return `${change.by ?? 'The bot'} changed ${change.label} from ${change.from} to ${change.to}, ${formatRelative(change.at)}`;
}

/** A plain JSON object body, which a confirmation can be added to. */
function isObjectBody(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

/**
 * Sends a request to /api with credentials and an optional JSON body; returns the parsed JSON (or
 * null for 204). Two answers are questions for the person, asked in a dialog (ServerQuestion):
 * 409 `confirmation_required` (a role with staff permissions to hand out: sent again with their
 * confirmation, or dropped with ConfirmationDeclined), and 409 `stale_version` (someone changed
 * what the save would change meanwhile: sent again over the current version to keep theirs, or
 * dropped with StaleDeclined so the page reloads).
 */
export async function apiRequest<T = unknown>(method: string, url: string, data?: unknown): Promise<T> {
  try {
    return await sendRequest<T>(method, url, data);
  } catch (error) {
    const asked = error instanceof ApiRequestError && error.status === 409 ? error.body : undefined;
    const body = data === undefined ? {} : isObjectBody(data) ? data : null;
    if (!asked || !body) throw error;
    if (asked.error === 'confirmation_required' && asked.confirmRoleIds?.length) {
      const question = {
        title: 'Hand out a role with staff permissions?',
        message: asked.message,
        confirmLabel: 'Hand it out',
        cancelLabel: 'Cancel',
        tone: 'danger',
      } as const;
      if (!(await askConfirmation(question))) throw new ConfirmationDeclined();
      const confirmed = [...new Set([...(Array.isArray(body.confirmRoleIds) ? (body.confirmRoleIds as string[]) : []), ...asked.confirmRoleIds])];
      return apiRequest<T>(method, url, { ...body, confirmRoleIds: confirmed });
    }
    if (asked.error === 'stale_version' && asked.stale && 'baseVersion' in body) {
      const question = {
        title: 'Changed while you were editing',
        message: asked.message,
        details: asked.stale.changes.map(changeLine),
        confirmLabel: 'Keep mine',
        cancelLabel: 'Reload',
        tone: 'primary',
      } as const;
      if (!(await askConfirmation(question))) throw new StaleDeclined();
      return apiRequest<T>(method, url, { ...body, baseVersion: asked.stale.version });
    }
    throw error;
  }
}

/** One request to /api, as apiRequest describes. */
async function sendRequest<T>(method: string, url: string, data?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: data === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
  });
  await throwIfNotOk(response);
  if (response.status === 204) return null as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** What a default query does with a 401: raise it, or resolve to null ("signed out"). */
export type UnauthorizedBehavior = 'throw' | 'returnNull';

/** The default GET query: the key's segments joined with '/' are the URL (spec section 7). */
export function getQueryFn({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction {
  return async ({ queryKey }) => {
    const url = queryKey.map(String).join('/');
    try {
      return await apiRequest('GET', url);
    } catch (error) {
      if (on401 === 'returnNull' && hasStatus(error, 401)) return null;
      throw error;
    }
  };
}

/** The shared cache: never stale, no interval or focus refetch, no retries (spec section 7). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      staleTime: Infinity,
      refetchInterval: false,
      refetchOnWindowFocus: false,
      retry: false,
    },
    mutations: { retry: false },
  },
});

/**
 * Downloads a file the API streams (a CSV export) under `filename`; a non-ok answer throws like
 * apiRequest, so the page can say why.
 */
export async function downloadFile(url: string, filename: string): Promise<void> {
  const response = await fetch(url, { credentials: 'include' });
  await throwIfNotOk(response);
  saveBlob(await response.blob(), filename);
}

/** Saves `blob` as a file download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
