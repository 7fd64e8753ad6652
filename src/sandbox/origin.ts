import type { Context } from 'koa';

/** Host names that are this machine; any other Host header may be DNS rebinding. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** The host name of a Host header or URL host ("localhost:3001" -> "localhost", "[::1]:80" -> "[::1]"). */
function hostName(host: string): string {
  const bracket = /^(\[[^\]]*\])(?::\d+)?$/.exec(host);
  if (bracket?.[1]) return bracket[1].toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/** True when the request names a loopback host, so a page on another domain cannot reach us by rebinding its DNS. */
export function hasLoopbackHost(ctx: Context): boolean {
  return LOOPBACK_HOSTS.has(hostName(ctx.get('Host')));
}

/**
 * True when a browser sent this request from another site: `Sec-Fetch-Site` other than
 * same-origin/none, or an `Origin` that is not a loopback origin. Scripts and tests send neither.
 */
export function isCrossSite(ctx: Context): boolean {
  const site = ctx.get('Sec-Fetch-Site');
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = ctx.get('Origin');
  if (!origin) return false;
  try {
    return !LOOPBACK_HOSTS.has(hostName(new URL(origin).host));
  } catch {
    return true;
  }
}
