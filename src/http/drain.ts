import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How long requests in flight at shutdown may take to finish before their connections are cut. */
export const DRAIN_GRACE_MS = 5000;

/** Closes a server the graceful way. */
export interface Drainable {
  /**
   * Refuses new connections at once, closes idle kept-alive ones, lets requests in flight finish
   * (each answered with `Connection: close`, so its socket closes after it), and cuts whatever is
   * still open after `graceMs`. Resolves with how many requests were cut (0 when all finished).
   */
  drain(graceMs?: number): Promise<number>;
}

/**
 * Tracks the server's requests in flight from now on, so that it can be drained. Call before any
 * other 'request' listener is added: during a drain, responses are marked `Connection: close` here
 * before the app writes them.
 */
export function drainable(server: Server): Drainable {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
    if (draining) response.setHeader('Connection', 'close');
  });
  let drained: Promise<number> | null = null;
  return {
    drain(graceMs = DRAIN_GRACE_MS) {
      drained ??= new Promise<number>((resolve) => {
        draining = true;
        let cut = 0;
        const timer = setTimeout(() => {
          cut = inFlight.size;
          server.closeAllConnections();
        }, graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve(cut);
        });
        // Requests whose answer has not started close their socket after it; answers already on the
        // wire close theirs when they end.
        for (const response of inFlight) {
          if (!response.headersSent) response.setHeader('Connection', 'close');
          else response.once('finish', () => response.socket?.end());
        }
        server.closeIdleConnections();
      });
      return drained;
    },
  };
}
