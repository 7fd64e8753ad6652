import type { Context } from 'koa';

/** Host names that are this machine; any other Host header may be DNS rebinding. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The host name of a Host header or URL host ("localhost:3001" -> "localhost", "[::1]:80" -> "[::1]"). */
function hostName(host: string): string {
  const bracket = /^(\[[^\]]*\])(?::\d+)?$/.exec(host);
  if (bracket?.[1]) return bracket[1].toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/** True when a Host header (or URL host) names this machine. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(hostName(host));
}

/** True when the request names a loopback host, so a page on another domain cannot reach us by rebinding its DNS. */
export function hasLoopbackHost(ctx: Context): boolean {
  return isLoopbackHost(ctx.get('Host'));
}

/**
 * True when the Host header names this machine or one of `publicOrigins` (the dashboard's origin,
 * where the sandbox's pages are mounted): a rebinding domain is neither.
 */
export function hasOwnHost(ctx: Context, publicOrigins: ReadonlySet<string>): boolean {
  if (hasLoopbackHost(ctx)) return true;
  const host = ctx.get('Host').toLowerCase();
  return [...publicOrigins].some((origin) => new URL(origin).host === host);
}

/**
 * True when a browser sent this request from another site: `Sec-Fetch-Site` other than
 * same-origin/none, or an `Origin` that is neither a loopback origin nor one of `publicOrigins`
 * (the dashboard's origin, for the consent form mounted there). Scripts and tests send neither.
 */
export function isCrossSite(ctx: Context, publicOrigins: ReadonlySet<string> = new Set()): boolean {
  const site = ctx.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = ctx.get('Origin');
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return !(LOOPBACK_HOSTS.has(hostName(url.host)) || publicOrigins.has(url.origin));
  } catch {
    return true;
  }
}
