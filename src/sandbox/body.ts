import type { IncomingMessage } from 'node:http';

/** Largest request body accepted (Discord's own cap for JSON payloads is far below this). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A request body past the limit its route reads. */
export class BodyTooLarge extends Error {
  /** `limit` is the most bytes the route reads. */
  constructor(readonly limit: number) {
    super('request body too large');
  }
}

/** Reads the raw request body as text, throwing BodyTooLarge past `maxBytes`. */
export async function readRawBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return (await readRawBytes(req, maxBytes)).toString('utf8');
}

/**
 * How much of a body past its limit is still taken off the wire (and dropped) so the sender, still
 * uploading, reads the 413 instead of a reset connection; past it the connection is cut.
 */
const DISCARD_BYTES = 64 * 1024 * 1024;

/**
 * Reads the raw request body as bytes (files stay as sent), throwing BodyTooLarge past `maxBytes`:
 * the rest of such a body is dropped as it arrives (never kept), up to DISCARD_BYTES more.
 */
export async function readRawBytes(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBytes + DISCARD_BYTES) throw new BodyTooLarge(maxBytes);
    if (size <= maxBytes) chunks.push(buffer);
  }
  if (size > maxBytes) throw new BodyTooLarge(maxBytes);
  return Buffer.concat(chunks);
}

/**
 * Parses a body by content type: JSON, urlencoded forms, and multipart (discord.js sends files as
 * multipart with the JSON in a `payload_json` part; the REST routes read the files with parseMultipart).
 * Returns `undefined` for an empty body; throws SyntaxError for malformed JSON.
 */
export function parseBody(contentType: string | undefined, raw: string): unknown {
  if (raw.length === 0) return undefined;
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  if (type.includes('multipart/form-data')) {
    const match = /name="payload_json"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n--/.exec(raw);
    return match?.[1] ? JSON.parse(match[1]) : {};
  }
  return JSON.parse(raw);
}
