import { createHash } from 'node:crypto';

/** Requests per bucket per window the sandbox advertises (not enforced: faults simulate real 429s). */
export const BUCKET_LIMIT = 50;
/** The window length in seconds. */
export const WINDOW_SECONDS = 1;

interface Window {
  resetAt: number;
  used: number;
}

/**
 * Counts requests per bucket (method + route + major parameter, like Discord) and produces the
 * `X-RateLimit-*` headers discord.js reads. A bucket that runs out just makes discord.js wait for the reset.
 */
export class RateLimitHeaders {
  private readonly windows = new Map<string, Window>();

  /** Headers for one request in the bucket `routeKey` (e.g. `POST /channels/:channelId/messages`) and its major id. */
  next(routeKey: string, majorId: string): Record<string, string> {
    const now = Date.now();
    const key = `${routeKey}|${majorId}`;
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + WINDOW_SECONDS * 1000, used: 0 };
      this.windows.set(key, window);
    }
    window.used += 1;
    return {
      'X-RateLimit-Limit': String(BUCKET_LIMIT),
      'X-RateLimit-Remaining': String(Math.max(0, BUCKET_LIMIT - window.used)),
      'X-RateLimit-Reset': (window.resetAt / 1000).toFixed(3),
      'X-RateLimit-Reset-After': ((window.resetAt - now) / 1000).toFixed(3),
      'X-RateLimit-Bucket': createHash('sha1').update(routeKey).digest('hex').slice(0, 16),
    };
  }
}
