import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook must not reach: loopback, private, link-local, carrier-grade NAT, multicast, reserved. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** True for an address a webhook must not reach (IPv4-mapped IPv6 is checked as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return true;
}

/** Why a webhook target was refused, for the admin. */
export class WebhookTargetRefused extends Error {
  override name = 'WebhookTargetRefused';
}

/**
 * Resolves the URL's host and refuses it when any address it resolves to is private (unless
 * `allowPrivate`, for self-hosters whose receiver sits on their own network, and for tests).
 * Returns the addresses, so the connection can be pinned to what was checked.
 */
export async function checkWebhookTarget(url: URL, allowPrivate: boolean): Promise<{ address: string; family: number }[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WebhookTargetRefused(`${host} does not resolve to an address`);
    }
  }
  if (!allowPrivate && addresses.some(({ address }) => isPrivateAddress(address))) {
    throw new WebhookTargetRefused(`${host} points to a loopback, private or link-local address; webhooks must reach a public address`);
  }
  return addresses;
}
