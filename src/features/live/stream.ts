// One dashboard tab's live stream of a server (text/event-stream): the bus's notices as `change`
// events, a comment now and then so proxies keep it open, and an `ended` event before it closes for
// good (access lost, signed out, shutdown). It ends with its connection: nothing is left listening.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { atLeast, type AccessLevel } from '../../shared/access';
import { LIVE_EVENTS, LIVE_RETRY_MS, type LiveEnd, type LiveTopic } from '../../shared/live';
import type { LiveSignal } from '../../core/live';
import type { Services } from '../../core/services';

/** How often a comment keeps the connection busy: below the idle timeouts of common proxies (60 s). */
export const HEARTBEAT_MS = 15_000;
/** A topic is sent at most this often per stream: a burst (XP flushes while people chat) is one notice. */
export const TOPIC_INTERVAL_MS = 500;

/** Who the stream is for and what they must keep to keep it. */
export interface StreamOwner {
  guildId: string;
  userId: string;
  /** The access the stream's route needs; the stream ends when the owner falls below it. */
  needed: AccessLevel;
  /** Whether the session the stream was opened with is still open. */
  sessionOpen: () => Promise<boolean>;
}

/** One server-sent event's text. */
function eventText(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Answers the request with the owner's live stream of their server. */
export function openLiveStream(ctx: Context, services: Services, owner: StreamOwner): void {
  const body = new PassThrough();
  let ended = false;
  const lastSent = new Map<LiveTopic, number>();
  const waiting = new Map<LiveTopic, NodeJS.Timeout>();

  const write = (text: string) => {
    if (!ended) body.write(text);
  };
  const send = (topic: LiveTopic) => {
    lastSent.set(topic, Date.now());
    write(eventText(LIVE_EVENTS.change, { topic }));
  };
  /** At once, or once TOPIC_INTERVAL_MS has passed since the topic was last sent (one notice for a burst). */
  const notice = (topic: LiveTopic) => {
    if (waiting.has(topic)) return;
    const wait = (lastSent.get(topic) ?? -Infinity) + TOPIC_INTERVAL_MS - Date.now();
    if (wait <= 0) return send(topic);
    waiting.set(
      topic,
      setTimeout(() => {
        waiting.delete(topic);
        send(topic);
      }, wait),
    );
  };
  const end = (reason: LiveEnd['reason']) => {
    if (ended) return;
    body.write(eventText(LIVE_EVENTS.ended, { reason }));
    ended = true;
    body.end();
    cleanUp();
  };

  // Access is asked again on each hint that it changed, one question at a time (the last hint wins).
  let checking: Promise<void> | null = null;
  let again: (() => Promise<LiveEnd['reason'] | null>) | null = null;
  const recheck = (question: () => Promise<LiveEnd['reason'] | null>) => {
    if (checking) {
      again = question;
      return;
    }
    checking = (async () => {
      let next: typeof again = question;
      while (next && !ended) {
        again = null;
        const reason = await next().catch(() => 'access' as const);
        if (reason) end(reason);
        next = again;
      }
      checking = null;
    })();
  };
  const accessLost = async () => {
    const access = await services.access.of(owner.guildId, owner.userId);
    return atLeast(access.level, owner.needed) ? null : ('access' as const);
  };
  const signedOut = async () => ((await owner.sessionOpen()) ? null : ('signed-out' as const));

  const hear = (signal: LiveSignal) => {
    switch (signal.kind) {
      case 'change':
        return notice(signal.topic);
      case 'access':
        if (signal.userId === null || signal.userId === owner.userId) recheck(accessLost);
        return;
      case 'sessions':
        return recheck(signedOut);
      case 'closing':
        return end('shutdown');
    }
  };
  const unsubscribe = services.live.subscribe(owner.guildId, hear);
  // Each heartbeat also asks access again: what no event announces (a grant running out) ends the stream within HEARTBEAT_MS.
  const heartbeat = setInterval(() => {
    write(': heartbeat\n\n');
    recheck(accessLost);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  function cleanUp() {
    clearInterval(heartbeat);
    for (const timer of waiting.values()) clearTimeout(timer);
    waiting.clear();
    unsubscribe();
  }
  // The client went away (or Koa destroyed the body after the response closed).
  body.once('close', () => {
    ended = true;
    cleanUp();
  });
  ctx.res.once('close', () => {
    if (!body.destroyed) body.destroy();
  });

  // An open answer: no idle timeout on the socket, each event sent as written, never buffered by a proxy.
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
  ctx.set('Cache-Control', 'no-cache, no-transform');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = body;
  // The retry field, and a first line so the browser sees the stream open at once.
  body.write(`retry: ${LIVE_RETRY_MS}\n: open\n\n`);
}
