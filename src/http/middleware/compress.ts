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

/** What one answer object was sent as: its JSON, and its compressed forms once asked for. */
interface Encoded {
  /** The JSON as text: Node sends a text body in one write with the headers (a Buffer takes two). */
  text?: string;
  raw: Buffer;
  coded: Partial<Record<Encoding, Promise<Buffer>>>;
}

/**
 * Per answer object: the dashboard's reads are answered from a cache (services.readCache) with the
 * same object for a second, so its JSON and its brotli or gzip are made once, not per request.
 * Answers are never changed after a handler returns them.
 */
const encodings = new WeakMap<object, Encoded>();

/** The bytes Koa would send for `body`, or undefined for a body it streams (a stream, a blob) or none. */
function bytesOf(body: unknown): Encoded | undefined {
  if (typeof body === 'string') return { text: body, raw: Buffer.from(body), coded: {} };
  if (Buffer.isBuffer(body)) return { raw: body, coded: {} };
  if (typeof body !== 'object' || body === null) return undefined;
  const known = encodings.get(body);
  if (known) return known;
  const prototype: unknown = Object.getPrototypeOf(body);
  // Plain objects and arrays: Koa sends them as JSON.stringify does.
  if (!(Array.isArray(body) || prototype === Object.prototype || prototype === null)) return undefined;
  const text = JSON.stringify(body);
  const encoded = { text, raw: Buffer.from(text), coded: {} };
  // Only answers worth compressing are remembered: a small one is cheaper to make again than to
  // keep in a WeakMap (whose entries the collector must trace) for every request's answer.
  if (text.length > COMPRESS_MIN_BYTES / 3) encodings.set(body, encoded);
  return encoded;
}

/** JSON or HTML, as Content-Type says (what `ctx.response.is('json', 'html')` answers, without parsing it per request). */
function compressibleType(contentType: string): boolean {
  const end = contentType.indexOf(';');
  const type = (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
  return type === 'application/json' || type === 'text/html' || (type.startsWith('application/') && type.endsWith('+json'));
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
    if (ctx.respond === false || ctx.response.get('Content-Encoding') || !compressibleType(ctx.response.get('Content-Type') ?? '')) return;
    const encoded = bytesOf(ctx.body);
    if (!encoded) return;
    // Koa would stringify an object again: it gets the JSON already made (its type stays JSON).
    if (encoded.raw.length <= COMPRESS_MIN_BYTES) {
      ctx.body = encoded.text ?? encoded.raw;
      return;
    }
    ctx.vary('Accept-Encoding');
    const encoding = chooseEncoding(ctx.get('Accept-Encoding'), ['br', 'gzip']);
    if (encoding === 'identity') {
      ctx.body = encoded.text ?? encoded.raw;
      return;
    }
    const coded = (encoded.coded[encoding] ??= compressors[encoding](encoded.raw));
    coded.catch(() => delete encoded.coded[encoding]);
    ctx.body = await coded;
    ctx.set('Content-Encoding', encoding);
  };
}
