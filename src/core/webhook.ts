import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookTarget } from './webhook-target';

/** The value of X-Signature-256: `sha256=` and the hex HMAC-SHA256 of the raw body with the API key. */
export function signBody(body: string, key: string): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

/** A lookup that answers only the address that was checked, so DNS cannot change between the check and the connection. */
export function pinnedLookup(address: string, family: number): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * POSTs a JSON body to a webhook URL and resolves with the HTTP status. The host is resolved and
 * checked first (no private addresses unless allowed), and the connection goes to that address.
 */
export async function postWebhook(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<number> {
  const [target] = await checkWebhookTarget(url, options.allowPrivate);
  if (!target) throw new Error(`The webhook's host ${url.hostname} does not resolve to an address.`);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'AwesomeBot-Webhook/1.0', ...headers },
        lookup: pinnedLookup(target.address, target.family),
        timeout: options.timeoutMs ?? 10_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('the receiver did not answer in time')));
    request.on('error', reject);
    request.end(body);
  });
}
