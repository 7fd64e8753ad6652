import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import { isLoopbackHost } from './origin';

/** Where the product serves its sandbox on the dashboard's port. */
export const SANDBOX_MOUNT_PATH = '/_discord';

/** The sandbox served under a path of another HTTP server (the dashboard's port). */
export interface SandboxMount {
  /** e.g. `/_discord`. */
  path: string;
  /** Where browsers reach it, e.g. `http://localhost:3000/_discord`. */
  url: string;
  /** Its CDN for browsers (`url + '/cdn'`): what discord.js builds avatar URLs on, as they end up in pages. */
  cdnBase: string;
  /** Serves a request under `path` and returns true, or returns false and leaves it to the host server. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Requests that came in through a mount, with the mount's path; the sandbox's own port adds none. */
const mountedRequests = new WeakMap<IncomingMessage, string>();

/** The path the sandbox's own pages are under for this request: the mount's, or '' on its own port. */
export function basePath(ctx: Context): string {
  return mountedRequests.get(ctx.req) ?? '';
}

/** Headers a proxy adds: a request carrying one was relayed, whatever its socket says. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

/** True for 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === '::1') return true;
  return /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

/**
 * True when a request comes from a process on this machine and names it: a loopback socket
 * address, a loopback Host (no DNS rebinding), and no proxy headers (a proxy on this machine
 * relaying someone else's request connects from loopback too). Only the socket's own address is
 * believed: X-Forwarded-For can never make a request local, whatever TRUST_PROXY says.
 */
export function isFromThisMachine(req: Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string } }): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  if (PROXY_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  return isLoopbackHost(req.headers.host ?? '');
}

/**
 * What a browser on the dashboard needs from the sandbox: the consent page and its form (the
 * "Continue with Discord" and "Add Bot" flows), avatars and icons, and the channel view the
 * dashboard's "Open" links lead to. Decided on Koa's `ctx.path`, the same string the sandbox's
 * own middlewares route on, so nothing classed here as a page can reach REST or the control API.
 */
export function isBrowserRoute(method: string, path: string): boolean {
  if (path === '/oauth2/authorize') return method === 'GET' || method === 'POST';
  if (path.startsWith('/cdn/')) return method === 'GET' || method === 'HEAD';
  if (/^\/channels\/\d+(?:\/\d+){0,2}\/?$/.test(path)) return method === 'GET';
  return false;
}

/**
 * The policy of every answer through the mount. Pages under the dashboard's origin share it with
 * the dashboard's session: they may run no script but the ones hashed (the channel view's), load
 * nothing from elsewhere, and never be framed.
 */
function mountedPolicy(scriptHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${scriptHashes.length > 0 ? scriptHashes.map((hash) => `'${hash}'`).join(' ') : "'none'"}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The sandbox app's first middleware. A request through the mount reaches REST (the token
 * endpoint included), the control API and anything else but the browser routes only from this
 * machine (`isFromThisMachine`); others get 404, as if the path did not exist. The sandbox's own
 * guards (loopback Host, cross-site writes, JSON bodies, bot tokens) still apply after it.
 */
export function mountGate(scriptHashes: readonly string[]): Middleware {
  const policy = mountedPolicy(scriptHashes);
  return async (ctx, next) => {
    if (!mountedRequests.has(ctx.req)) return next();
    ctx.set({ 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' });
    if (!isBrowserRoute(ctx.method, ctx.path) && !isFromThisMachine(ctx.req)) {
      ctx.status = 404;
      ctx.body = 'Not Found';
      return;
    }
    return next();
  };
}

/** Serves `serve` (the sandbox app) under `path` of another server, reached by browsers at `publicUrl + path`. */
export function createMount(serve: (req: IncomingMessage, res: ServerResponse) => unknown, path: string, publicUrl: string): SandboxMount {
  return {
    path,
    url: `${publicUrl}${path}`,
    cdnBase: `${publicUrl}${path}/cdn`,
    handle(req, res) {
      const url = req.url ?? '/';
      if (url !== path && !url.startsWith(`${path}/`) && !url.startsWith(`${path}?`)) return false;
      const rest = url.slice(path.length);
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      mountedRequests.set(req, path);
      void serve(req, res);
      return true;
    },
  };
}
