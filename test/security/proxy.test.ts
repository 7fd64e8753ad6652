// Client addresses behind proxies: X-Forwarded-For is only believed when TRUST_PROXY says how
// many proxies stand in front, and then only that many hops from the right (the entries the
// proxies appended), so a client cannot pick its own address to dodge the rate limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import type { Store } from '../../src/db/store';
import { buildApp, testConfig } from '../helpers/app';
import { createTestStore } from '../helpers/store';

const PUBLIC_URL = 'https://bot.example.com';
const LIMIT = 20;

describe('TRUST_PROXY and the sign-in rate limit', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  before(async () => {
    ({ store, dispose } = await createTestStore());
  });
  after(() => dispose());

  function app(trustProxy: string) {
    const config = { ...testConfig({ TRUST_PROXY: trustProxy }), mode: 'discord' as const, publicUrl: PUBLIC_URL };
    return buildApp(store, { config, rateLimits: { auth: { max: LIMIT, durationMs: 60_000 }, mutations: { max: 1000, durationMs: 60_000 } } }).callback();
  }

  /** Sends `count` sign-in starts, each with the X-Forwarded-For `header(i)`; returns the statuses. */
  async function signIns(callback: ReturnType<typeof app>, count: number, header: (i: number) => string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const response = await request(callback).get('/api/auth/discord/login').set('X-Forwarded-For', header(i)).set('X-Forwarded-Proto', 'https');
      statuses.push(response.status);
    }
    return statuses;
  }

  test('by default (no proxy) X-Forwarded-For is ignored: a rotating header does not lift the limit', async () => {
    const statuses = await signIns(app('0'), 2 * LIMIT, (i) => `198.51.100.${i}`);
    assert.equal(statuses.filter((s) => s === 302).length, LIMIT);
    assert.deepEqual(statuses.slice(LIMIT), Array(LIMIT).fill(429));
  });

  test('with one proxy, the rightmost entry is the client: spoofed entries to its left change nothing', async () => {
    const callback = app('1');
    const statuses = await signIns(callback, 2 * LIMIT, (i) => `198.51.100.${i}, 203.0.113.7`);
    assert.equal(statuses.filter((s) => s === 302).length, LIMIT);
    assert.equal(statuses.at(-1), 429);
    const other = await signIns(callback, 1, () => '203.0.113.8');
    assert.deepEqual(other, [302], 'another real client has its own budget');
  });

  test('with two proxies, the client is the second entry from the right', async () => {
    const callback = app('2');
    const statuses = await signIns(callback, LIMIT + 1, (i) => `198.51.100.${i}, 203.0.113.9, 10.0.0.${i}`);
    assert.equal(statuses.filter((s) => s === 302).length, LIMIT);
    assert.equal(statuses.at(-1), 429);
  });

  test('the session cookie stays Secure over an https PUBLIC_URL whether or not a proxy is trusted', async () => {
    for (const hops of ['0', '1']) {
      const response = await request(app(hops)).get('/api/auth/discord/login').expect(302);
      const cookie = (response.headers['set-cookie'] as unknown as string[])[0] ?? '';
      assert.match(cookie, /^__Host-sid=.*; secure/i, `TRUST_PROXY=${hops}`);
    }
  });
});
