import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Middleware } from 'koa';
import { chooseEncoding, type Encoding } from '../encoding';

/** Answers up to this size go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;
/** Brotli's quality for answers made per request: near its best ratio for JSON, at a fraction of quality 11's time. */
const BROTLI_QUALITY = 5;

const compressors: Record<Encoding, (raw: Buffer) => Promise<Buffer>> = {
  br: (raw) => promisify(brotliCompress)(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
  gzip: (raw) => promisify(gzip)(raw),
};

/** The bytes Koa would send for `body`, or undefined for a body it streams (a stream, a blob) or none. */
function bytesOf(body: unknown): Buffer | undefined {
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const prototype: unknown = Object.getPrototypeOf(body);
  // Plain objects and arrays: Koa sends them as JSON.stringify does.
  return Array.isArray(body) || prototype === Object.prototype || prototype === null ? Buffer.from(JSON.stringify(body)) : undefined;
}

/**
 * Compresses JSON and HTML answers (the API, the dashboard's page) larger than 1 KB with brotli
 * or gzip, as the request's Accept-Encoding prefers, and says they vary by it. Streamed answers
 * (a CSV export) pass untouched, so they still stream; so does anything already encoded (the
 * precompressed assets). The session cookie is SameSite=Lax, so another site cannot have a
 * browser fetch these answers with it and measure their compressed size (BREACH).
 */
export function compressResponses(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.respond === false || ctx.response.get('Content-Encoding') || !ctx.response.is('json', 'html')) return;
    const raw = bytesOf(ctx.body);
    if (!raw || raw.length <= COMPRESS_MIN_BYTES) return;
    ctx.vary('Accept-Encoding');
    const encoding = chooseEncoding(ctx.get('Accept-Encoding'), ['br', 'gzip']);
    if (encoding === 'identity') return;
    ctx.body = await compressors[encoding](raw);
    ctx.set('Content-Encoding', encoding);
  };
}
