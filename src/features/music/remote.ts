// Fetches what a stream or an attachment plays, from a host the address guard let through: each
// hop of a redirect is checked again, and the connection goes to the address that was checked, so
// DNS cannot point it at the host's own network between the check and the connection. A station's
// playlist (M3U, PLS) is read here and its streams tried in order; ffmpeg never sees an address.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pinnedLookup } from '../../core/webhook';
import { checkWebhookTarget, WebhookTargetRefused } from '../../core/webhook-target';
import { parsePlaylist, playlistKind } from './playlist';

/** Redirects followed before giving up: stations bounce through a load balancer or two. */
const MAX_REDIRECTS = 5;
/** The longest a host may take to answer with its headers. */
const ANSWER_TIMEOUT_MS = 10_000;
/** The largest playlist read: a few lines naming streams. */
const MAX_PLAYLIST_BYTES = 64 * 1024;

/** Why a stream or an attachment could not be opened, in words for the channel. */
export class RemoteRefused extends Error {}

/** One GET to a checked address; the answer's headers, or a RemoteRefused saying why not. */
async function getOnce(url: URL, allowPrivate: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  let target: { address: string; family: number } | undefined;
  try {
    [target] = await checkWebhookTarget(url, allowPrivate, 'stream');
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw new RemoteRefused(error.message);
    throw error;
  }
  if (!target) throw new RemoteRefused(`The stream's host ${url.hostname} does not resolve to an address.`);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.get(
      url,
      {
        headers: { 'User-Agent': 'AwesomeBot-Music/1.0', Accept: '*/*', 'Icy-MetaData': '0' },
        lookup: pinnedLookup(target.address, target.family),
        timeout: ANSWER_TIMEOUT_MS,
        signal,
      },
      (response) => {
        request.setTimeout(0);
        resolve(response);
      },
    );
    request.on('timeout', () => request.destroy(new RemoteRefused(`${url.host} did not answer within ${ANSWER_TIMEOUT_MS / 1000} seconds.`)));
    request.on('error', (error) => reject(error instanceof RemoteRefused ? error : new RemoteRefused(`${url.host} could not be reached (${error.message}).`)));
  });
}

/** GET that follows redirects, checking every hop; answers a 2xx response. */
export async function guardedGet(address: string, allowPrivate: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  let url = new URL(address);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteRefused('The stream redirected to an address that is not http or https.');
    const response = await getOnce(url, allowPrivate, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      url = new URL(location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new RemoteRefused(`${url.host} answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}.`);
    }
    return response;
  }
  throw new RemoteRefused(`The stream redirected more than ${MAX_REDIRECTS} times.`);
}

/** A playlist's text, up to MAX_PLAYLIST_BYTES. */
async function readPlaylist(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PLAYLIST_BYTES) {
      response.destroy();
      throw new RemoteRefused(`The playlist is larger than ${MAX_PLAYLIST_BYTES / 1024} KB; a station's playlist names a few streams.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Opens a stream's audio: the address itself, or when it serves a playlist, the first of the
 * playlist's streams that answers. Every address goes through the guard.
 */
export async function openStream(address: string, allowPrivate: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  const response = await guardedGet(address, allowPrivate, signal);
  const kind = playlistKind(String(response.headers['content-type'] ?? ''), new URL(address).pathname);
  if (!kind) return response;
  const entries = parsePlaylist(kind, await readPlaylist(response), address);
  if (entries.length === 0) throw new RemoteRefused('The playlist names no http or https stream.');
  const problems: string[] = [];
  for (const entry of entries) {
    try {
      const stream = await guardedGet(entry, allowPrivate, signal);
      // A playlist that names another playlist is not followed: stations list their streams directly.
      if (!playlistKind(String(stream.headers['content-type'] ?? ''), new URL(entry).pathname)) return stream;
      stream.destroy();
      problems.push(`${new URL(entry).host} served another playlist`);
    } catch (error) {
      if (!(error instanceof RemoteRefused)) throw error;
      problems.push(error.message);
    }
  }
  throw new RemoteRefused(`None of the playlist's ${entries.length} streams could be played: ${problems.join(' ')}`);
}
