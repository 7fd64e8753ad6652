import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Which addresses count as public is ipaddr.js's list of IANA special-purpose ranges (loopback,
// private, link-local, CGNAT, reserved, documentation, benchmarking, ULA, 6to4, Teredo, NAT64, ...)
// rather than a list kept here by hand: a hand list missed IPv4-compatible and 6to4 loopback.

/** Every IPv6 address IANA has handed out for global unicast lies in 2000::/3; anything outside it is not a public host. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** NAT64's well-known prefix (RFC 6052): its last 32 bits are an IPv4 address the gateway connects to, and it may only carry public ones. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * Parses an IP literal. An IPv6 one goes through the WHATWG URL parser first, which writes it in hex
 * only: ipaddr.js 2.5 reads a dotted tail as IPv4-mapped whatever precedes it (`::127.0.0.1`, which is
 * IPv4-compatible, comes back as `::ffff:7f00:1`), and the resolver writes IPv4-compatible answers so.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    if (isIP(address) === 4) return ipaddr.IPv4.parse(address);
    if (isIP(address) === 6) return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    // A zone id ("fe80::1%eth0") or anything else the URL parser refuses: not an address a webhook may reach.
  }
  return null;
}

/** A public IPv4 address: ipaddr.js puts it in no special-purpose range. */
function isPublicV4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/**
 * True only for an address a webhook may reach: global unicast. An IPv6 address that carries an
 * IPv4 one is judged by that IPv4 when the connection really goes to it (IPv4-mapped, NAT64's
 * well-known prefix, which DNS64 hands out for every IPv4-only host); the other embeddings
 * (IPv4-compatible, 6to4, Teredo, NAT64 local-use, IPv4-translated) reach a host through a relay or
 * are deprecated, and are refused whatever they carry. Anything that is not an IP literal is refused
 * (node's isIP decides: ipaddr.js would also read "0x7f.1" and "2130706433", host names here).
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (!parsed) return false;
  if (parsed instanceof ipaddr.IPv4) return isPublicV4(parsed);
  if (parsed.isIPv4MappedAddress()) return isPublicV4(parsed.toIPv4Address());
  if (parsed.match(NAT64_WELL_KNOWN)) return isPublicV4(new ipaddr.IPv4(parsed.toByteArray().slice(12)));
  return parsed.range() === 'unicast' && parsed.match(GLOBAL_UNICAST_V6);
}

/** Why a webhook's (or a radio stream's) target was refused, for the admin. */
export class WebhookTargetRefused extends Error {
  override name = 'WebhookTargetRefused';
}

/**
 * Resolves the URL's host and refuses it when any address it resolves to is not public (unless
 * `allowPrivate`, for self-hosters whose receiver sits on their own network, and for tests).
 * `noun` names what the URL is for in the refusal ("webhook", "stream"): the same guard keeps
 * webhooks and radio streams off the host's own network, under the same operator setting.
 * Returns the addresses, so the connection can be pinned to what was checked.
 */
export async function checkWebhookTarget(url: URL, allowPrivate: boolean, noun = 'webhook'): Promise<{ address: string; family: number }[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WebhookTargetRefused(`The ${noun}'s host ${host} does not resolve to an address.`);
    }
  }
  if (!allowPrivate && addresses.some(({ address }) => !isPublicAddress(address))) {
    throw new WebhookTargetRefused(
      `The ${noun}'s host ${host} points to an address that is not public (loopback, private, link-local or reserved for a special purpose); a ` +
        `${noun} must reach a public address.`,
    );
  }
  return addresses;
}
