import type { UploadedFile } from './multipart';

/** Who is calling a REST route. */
export type Caller = { kind: 'bot' } | { kind: 'bearer'; userId: string; scopes: string[] } | { kind: 'none' };

/** Which callers a route accepts: the bot token, an OAuth Bearer token, either, or anyone (webhooks, interactions). */
export type RouteAuth = 'bot' | 'bearer' | 'bot-or-bearer' | 'none';

/** What a handler receives: decoded path params, the query, the parsed body and the caller. */
export interface RouteRequest {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** The files of a multipart body (`files[n]` parts); none for JSON. */
  files?: UploadedFile[];
  caller: Caller;
  /** The decoded `X-Audit-Log-Reason` header, if any. */
  reason: string | null;
}

/** What a handler answers: a status and a JSON body (none for 204). */
export interface RouteResponse {
  status: number;
  body?: unknown;
}

/** A route handler. */
export type RouteHandler = (request: RouteRequest) => RouteResponse | Promise<RouteResponse>;

/** What a route may do besides answering. */
export interface RouteOptions {
  /** Called when a request was refused with a 4xx (body, parameters or handler), e.g. to spend an interaction's one response. */
  refused?: (params: Record<string, string>, error: { code: number; message: string }) => void;
}

/** A registered route; `pattern` is like `/channels/:channelId/messages`. */
export interface Route extends RouteOptions {
  method: string;
  pattern: string;
  segments: string[];
  auth: RouteAuth;
  handler: RouteHandler;
}

/** A 200 JSON answer. */
export const ok = (body: unknown, status = 200): RouteResponse => ({ status, body });
/** A 204 answer, no body and no content type. */
export const noContent = (): RouteResponse => ({ status: 204 });

/** Splits a raw path into decoded segments (`%40original` -> `@original`, emoji decoded). */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/**
 * A tiny method + path router over decoded segments. Literal segments win over parameters, so
 * `/messages/@original` is not taken for `/messages/:messageId` when both exist.
 */
export class Router {
  /** Every route, in registration order (the conformance test walks them). */
  readonly routes: Route[] = [];

  /** Registers a route. */
  add(method: string, pattern: string, auth: RouteAuth, handler: RouteHandler, options: RouteOptions = {}): void {
    this.routes.push({ method, pattern, segments: pathSegments(pattern), auth, handler, ...options });
  }

  /** The best route for a method and path, with its params; `null` when no path matches. */
  match(method: string, segments: string[]): { route: Route; params: Record<string, string> } | null {
    let best: { route: Route; params: Record<string, string>; literals: number } | null = null;
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let literals = 0;
      let matched = true;
      route.segments.forEach((part, i) => {
        const actual = segments[i] ?? '';
        if (part.startsWith(':')) params[part.slice(1)] = actual;
        else if (part === actual) literals++;
        else matched = false;
      });
      if (matched && (!best || literals > best.literals)) best = { route, params, literals };
    }
    return best ? { route: best.route, params: best.params } : null;
  }
}
