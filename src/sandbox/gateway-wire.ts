// How a gateway connection asked to be spoken to, read from its URL as Discord reads it:
// `?v=10&encoding=json&compress=zlib-stream`. Version 10 only (4012 otherwise, as Discord closes an
// unknown version); JSON only (ETF is Discord's other encoding: the sandbox refuses it in words);
// zlib-stream transport compression as Discord does it (one zlib context for the connection, each
// payload flushed with Z_SYNC_FLUSH so it ends in 00 00 ff ff and is sent as one binary frame).
import { GatewayCloseCodes } from 'discord-api-types/v10';
import { constants, Deflate } from 'pako';

/** The gateway version the sandbox speaks. */
export const GATEWAY_VERSION = 10;

/** A connection's URL turned away: the close code and the reason sent with it. */
export interface WireRefusal {
  code: number;
  reason: string;
}

/** Turns a payload's JSON text into what goes out on the socket. */
export type WireEncoder = (json: string) => string | Buffer;

/**
 * WebSocket's "cannot accept this kind of data" (RFC 6455 1003): an encoding or compression the
 * sandbox does not serve. Discord has no close code for it; a library shows the reason.
 */
const UNSUPPORTED = 1003;

/** Reads `v`, `encoding` and `compress` off a gateway URL: how to encode its payloads, or why it is refused. */
export function readWire(url: string): { encode: WireEncoder } | WireRefusal {
  const query = new URL(url, 'ws://gateway').searchParams;
  const version = query.get('v');
  if (version !== null && version !== String(GATEWAY_VERSION)) return { code: GatewayCloseCodes.InvalidAPIVersion, reason: 'Invalid API version.' };
  const encoding = query.get('encoding') ?? 'json';
  if (encoding !== 'json') {
    return {
      code: UNSUPPORTED,
      reason:
        encoding === 'etf'
          ? 'The sandbox does not speak ETF: connect with encoding=json.'
          : `Unknown encoding "${encoding.slice(0, 20)}": connect with encoding=json.`,
    };
  }
  const compress = query.get('compress');
  if (compress === null) return { encode: (json) => json };
  if (compress === 'zlib-stream') return { encode: zlibStream() };
  return { code: UNSUPPORTED, reason: `The sandbox does not serve compress=${compress.slice(0, 20)}: use zlib-stream or no compression.` };
}

/** One zlib context for the whole connection; each payload comes out whole, ending in 00 00 ff ff. */
function zlibStream(): WireEncoder {
  const deflate = new Deflate();
  let chunks: Uint8Array[] = [];
  // Without a `to` option pako hands out bytes.
  deflate.onData = (chunk) => void chunks.push(chunk as Uint8Array);
  return (json) => {
    chunks = [];
    if (!deflate.push(json, constants.Z_SYNC_FLUSH)) throw new Error(`zlib-stream: ${deflate.msg || 'deflate failed'}`);
    return Buffer.concat(chunks);
  };
}
