import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compressedRateLimits, DISCORD_RATE_LIMITS, RateLimiter } from './ratelimit';

const POST = { routeKey: 'POST /channels/:channelId/messages', majorId: 'channel-1', token: 'bot' };

test('a compressed table keeps every bucket and the global cap, with windows a tenth as long', () => {
  const quick = compressedRateLimits(10);
  assert.equal(quick.global, DISCORD_RATE_LIMITS.global);
  assert.deepEqual(Object.keys(quick.routes), Object.keys(DISCORD_RATE_LIMITS.routes));
  assert.deepEqual(quick.routes[POST.routeKey], { limit: 5, windowMs: 500 });
  assert.deepEqual(quick.fallback, { limit: DISCORD_RATE_LIMITS.fallback.limit, windowMs: DISCORD_RATE_LIMITS.fallback.windowMs / 10 });
});

test('under a compressed table the sixth message in 500 ms is refused and says when to come back; the bucket resets after 500 ms', () => {
  let now = 1_000_000;
  const limiter = new RateLimiter(compressedRateLimits(10), () => now);
  for (let i = 0; i < 5; i += 1) assert.equal(limiter.take(POST).limited, null, `message ${i + 1}`);
  now += 200;
  const sixth = limiter.take(POST);
  assert.deepEqual(sixth.limited, { retryAfter: 0.3, global: false });
  assert.equal(sixth.headers['X-RateLimit-Remaining'], '0');
  now += 300;
  assert.equal(limiter.take(POST).limited, null, 'a new window');
});
