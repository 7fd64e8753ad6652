// A client of the dashboard's live stream (text/event-stream) over raw HTTP, as a browser's
// EventSource reads it: each event with the moment it arrived, the end of the stream, and a close.
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Test } from 'supertest';
import type { Product } from '../../src/main';
import { browserAgent, consentAs } from './product';

/** One server-sent event as it arrived. */
export interface ReceivedEvent {
  event: string;
  data: string;
  /** performance.now() when its last line arrived. */
  at: number;
}

/** An open stream. */
export interface EventStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body when the answer is not a stream (an error's JSON). */
  text: Promise<string>;
  events: ReceivedEvent[];
  /** Comments (heartbeats) seen so far. */
  comments: string[];
  /** Resolves with the first event (already arrived or to come) that passes `match`; rejects after `timeoutMs`. */
  next(match: (event: ReceivedEvent) => boolean, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Resolves with performance.now() when the server ended the stream. */
  ended: Promise<number>;
  /** Drops the connection, as a closed tab does. */
  close(): void;
}

/** Signs a sandbox user in through the OAuth flow and answers their session cookie ("sid=..."). */
export async function sessionCookieOf(product: Product, userId: string): Promise<string> {
  const browser = browserAgent(product);
  const login = await browser.get('/api/auth/discord/login?redirect=%2Fdashboard').expect(302);
  const callback = await consentAs(login.headers.location ?? '', userId);
  const response = await browser.post('/api/auth/discord/callback', {
    code: callback.searchParams.get('code') ?? '',
    state: callback.searchParams.get('state') ?? '',
  });
  const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((line) => line.startsWith('sid='));
  if (response.status !== 200 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie.split(';')[0] ?? '';
}

/** Opens `path` of the product as a stream, with the session `cookie` (none: signed out). */
export function openEventStream(product: Product, path: string, cookie?: string): Promise<EventStream> {
  const url = new URL(path, product.url);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: { Accept: 'text/event-stream', 'Accept-Encoding': 'gzip, br', ...(cookie ? { Cookie: cookie } : {}) },
    });
    req.once('error', reject);
    req.once('response', (res: IncomingMessage) => resolve(readStream(req, res)));
    req.end();
  });
}

function readStream(req: ReturnType<typeof request>, res: IncomingMessage): EventStream {
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let body = '';
  let endedAt: (at: number) => void = () => undefined;
  const ended = new Promise<number>((resolve) => (endedAt = resolve));
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    body += chunk;
    buffer += chunk;
    let split: number;
    while ((split = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, split);
      buffer = buffer.slice(split + 2);
      const fields = { event: 'message', data: [] as string[] };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else if (line.startsWith('event:')) fields.event = line.slice(6).trim();
        else if (line.startsWith('data:')) fields.data.push(line.slice(5).trim());
      }
      if (fields.data.length > 0) events.push({ event: fields.event, data: fields.data.join('\n'), at: performance.now() });
    }
    for (const wake of [...waiters]) wake();
  });
  const text = new Promise<string>((resolve) => res.once('end', () => resolve(body)));
  res.once('end', () => endedAt(performance.now()));
  res.once('error', () => endedAt(performance.now()));
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    text,
    events,
    comments,
    ended,
    close: () => req.destroy(),
    next(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms (got ${events.map((event) => event.data).join(', ') || 'none'})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Whether an event is a `change` notice of `topic`. */
export const changeOf = (topic: string) => (event: ReceivedEvent) => event.event === 'change' && (JSON.parse(event.data) as { topic?: string }).topic === topic;

/**
 * A supertest request whose answer may be a stream that never ends (a guild route with `stream`):
 * it resolves once a stream's headers arrive (the connection is then dropped), and reads any other
 * answer (an error's JSON) whole. For the tests that walk every route for its status.
 */
export function untilStreamOpens<T extends Test>(pending: T): T {
  return pending.buffer(true).parse((res, done) => {
    const response = res as unknown as IncomingMessage;
    if (String(response.headers['content-type']).startsWith('text/event-stream')) {
      done(null, {});
      response.destroy();
      return;
    }
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => {
      try {
        done(null, text ? (JSON.parse(text) as unknown) : {});
      } catch {
        done(null, { text });
      }
    });
  }) as T;
}
