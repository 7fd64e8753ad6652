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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBytes) throw new BodyTooLarge(maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Parses a body by content type: JSON, urlencoded forms, and multipart (discord.js sends files as
 * multipart with the JSON in a `payload_json` part; the files themselves are ignored).
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
