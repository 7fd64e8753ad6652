import { createHash } from 'node:crypto';

/** One bucket's allowance: `limit` requests per `windowMs`. */
export interface BucketRule {
  limit: number;
  windowMs: number;
}

/** The limits the sandbox enforces: a global cap per bot token, per-route buckets, a fallback. */
export interface RateLimitTable {
  /** Requests per second for one token across all routes (interaction and webhook-token routes are exempt). */
  global: number;
  /** Buckets by `METHOD /pattern` (per major parameter: channel, guild or webhook). */
  routes: Record<string, BucketRule>;
  /** Every other route. */
  fallback: BucketRule;
}

const per = (limit: number, seconds: number): BucketRule => ({ limit, windowMs: seconds * 1000 });

/**
 * Discord's limits as bots meet them (the documented global 50/s and the per-route buckets Discord
 * answers in its headers today): 5 messages per 5 s per channel, one reaction per 250 ms per channel,
 * 10 member edits per 10 s per guild.
 */
export const DISCORD_RATE_LIMITS: RateLimitTable = {
  global: 50,
  routes: {
    'POST /channels/:channelId/messages': per(5, 5),
    'PATCH /channels/:channelId/messages/:messageId': per(5, 5),
    'DELETE /channels/:channelId/messages/:messageId': per(5, 1),
    'POST /channels/:channelId/messages/bulk-delete': per(1, 1),
    'PUT /channels/:channelId/messages/:messageId/reactions/:emoji/@me': per(1, 0.25),
    'DELETE /channels/:channelId/messages/:messageId/reactions/:emoji/@me': per(1, 0.25),
    'DELETE /channels/:channelId/messages/:messageId/reactions/:emoji/:userId': per(1, 0.25),
    'DELETE /channels/:channelId/messages/:messageId/reactions/:emoji': per(1, 0.25),
    'DELETE /channels/:channelId/messages/:messageId/reactions': per(1, 0.25),
    'PATCH /guilds/:guildId/members/:userId': per(10, 10),
    'PUT /guilds/:guildId/members/:userId/roles/:roleId': per(10, 10),
    'DELETE /guilds/:guildId/members/:userId/roles/:roleId': per(10, 10),
    'DELETE /guilds/:guildId/members/:userId': per(5, 1),
    'PUT /guilds/:guildId/bans/:userId': per(5, 5),
    'DELETE /guilds/:guildId/bans/:userId': per(5, 5),
    'GET /guilds/:guildId/members': per(10, 10),
    'GET /guilds/:guildId/audit-logs': per(5, 5),
    'POST /users/@me/channels': per(5, 5),
  },
  fallback: per(50, 1),
};

/** For load tests: headers as usual, but buckets and the global cap far out of reach. */
export const RELAXED_RATE_LIMITS: RateLimitTable = { global: 1_000_000, routes: {}, fallback: per(1_000_000, 1) };

/**
 * Discord's limits (or `table`'s) with every bucket's window `factor` times shorter: the same buckets
 * and headers, so a client still runs out of a bucket and waits for its reset, in a fraction of the
 * time. The global cap stays per second. Tests of the product run under it; tests of the limits
 * themselves, under Discord's.
 */
export function compressedRateLimits(factor: number, table: RateLimitTable = DISCORD_RATE_LIMITS): RateLimitTable {
  const compress = (rule: BucketRule): BucketRule => ({ limit: rule.limit, windowMs: rule.windowMs / factor });
  return {
    global: table.global,
    routes: Object.fromEntries(Object.entries(table.routes).map(([route, rule]) => [route, compress(rule)])),
    fallback: compress(table.fallback),
  };
}

/** `'discord'` (the default) enforces Discord's limits, `'relaxed'` only advertises; a table sets custom ones. */
export type RateLimitOption = 'discord' | 'relaxed' | RateLimitTable;

/** The table an option stands for. */
export function rateLimitTable(option: RateLimitOption | undefined): RateLimitTable {
  if (option === 'relaxed') return RELAXED_RATE_LIMITS;
  if (option === undefined || option === 'discord') return DISCORD_RATE_LIMITS;
  return option;
}

interface Window {
  resetAt: number;
  used: number;
}

/** Who is counted: a bucket key, and the token for the global cap (null: exempt). */
export interface RateLimitRequest {
  routeKey: string;
  majorId: string;
  token: string | null;
}

/** What the limiter says about one request: its headers, and a 429 to answer when it is over. */
export interface RateLimitVerdict {
  headers: Record<string, string>;
  limited: { retryAfter: number; global: boolean } | null;
}

/**
 * Counts requests in fixed windows per bucket (route + major parameter, like Discord) and per token
 * (the global cap), and produces the `X-RateLimit-*` headers discord.js reads. A request over a
 * limit is refused with 429 and is not counted. Windows follow real time, not the world clock: a
 * client waits for a reset with real timers.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Window>();
  private readonly globals = new Map<string, Window>();
  /** Requests refused with 429 so far (`global`: by the global cap). */
  readonly refused = { bucket: 0, global: 0 };

  constructor(
    private readonly table: RateLimitTable,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks and counts one request. */
  take(request: RateLimitRequest): RateLimitVerdict {
    const now = this.now();
    const rule = this.table.routes[request.routeKey] ?? this.table.fallback;
    const bucket = this.window(this.buckets, `${request.routeKey}|${request.majorId}`, rule.windowMs, now);
    const global = request.token === null ? null : this.window(this.globals, request.token, 1000, now);
    const bucketHeaders = (used: number) => ({
      'X-RateLimit-Limit': String(rule.limit),
      'X-RateLimit-Remaining': String(Math.max(0, rule.limit - used)),
      'X-RateLimit-Reset': (bucket.resetAt / 1000).toFixed(3),
      'X-RateLimit-Reset-After': ((bucket.resetAt - now) / 1000).toFixed(3),
      'X-RateLimit-Bucket': bucketHash(request.routeKey),
    });

    if (global && global.used >= this.table.global) {
      this.refused.global += 1;
      const retryAfter = (global.resetAt - now) / 1000;
      return {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))), 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' },
        limited: { retryAfter, global: true },
      };
    }
    if (bucket.used >= rule.limit) {
      this.refused.bucket += 1;
      const retryAfter = (bucket.resetAt - now) / 1000;
      return {
        headers: { ...bucketHeaders(bucket.used), 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))), 'X-RateLimit-Scope': 'user' },
        limited: { retryAfter, global: false },
      };
    }
    bucket.used += 1;
    if (global) global.used += 1;
    return { headers: bucketHeaders(bucket.used), limited: null };
  }

  private window(windows: Map<string, Window>, key: string, windowMs: number, now: number): Window {
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + windowMs, used: 0 };
      windows.set(key, window);
    }
    return window;
  }
}

/** Discord's bucket ids are opaque hashes shared by the requests of one bucket. */
function bucketHash(routeKey: string): string {
  return createHash('sha1').update(routeKey).digest('hex').slice(0, 16);
}

/** The body of a 429, as Discord sends it (`retry_after` in seconds, with fractions). */
export function rateLimitedBody(retryAfter: number, global: boolean): { message: string; retry_after: number; global: boolean; code: number } {
  return { message: 'You are being rate limited.', retry_after: Math.round(retryAfter * 1000) / 1000, global, code: 0 };
}
