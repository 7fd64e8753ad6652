// GET /metrics: off without METRICS_TOKEN, behind the token with it, and in Prometheus's text format
// with the product's metrics, requests counted under their route pattern.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import request from 'supertest';
import { startTestProduct } from '../helpers/product';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { createWebRoot } from '../helpers/app';
import { levelingState } from '../../src/features/leveling/state';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line (`name{labels} value`) in a scrape, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /^[^{ ]+\{(.*)\} /.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  test('is a 404, not the dashboard page', async () => {
    const web = await createWebRoot();
    const product = await startTestProduct({}, { webRoot: web.root });
    try {
      const response = await request(product.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(404);
      assert.equal(response.body.error, 'not_found');
      assert.doesNotMatch(response.text, /<div id="root">/);
    } finally {
      await product.close();
      await web.dispose();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const harness = useHarness({ METRICS_TOKEN: TOKEN });
  let scrape: () => Promise<string>;
  before(() => {
    scrape = async () => (await request(harness().product.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text;
  });

  test('answers 401 without the token, with another one, or with another scheme', async () => {
    const { product } = harness();
    const missing = await request(product.url).get('/metrics').expect(401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer realm="metrics"');
    assert.equal(missing.body.error, 'unauthorized');
    await request(product.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`).expect(401);
    await request(product.url)
      .get('/metrics')
      .set('Authorization', `Bearer ${TOKEN.slice(0, -1)}`)
      .expect(401);
    await request(product.url).get('/metrics').set('Authorization', `Basic ${TOKEN}`).expect(401);
    await request(product.url).get('/metrics').set('Authorization', 'Bearer ').expect(401);
  });

  test('answers the Prometheus text format with the named metrics and the default process metrics', async () => {
    const { product } = harness();
    const response = await request(product.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    assert.match(response.headers['content-type'] ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(response.headers['cache-control'], 'no-store');
    for (const name of [
      'bot_http_request_duration_seconds',
      'bot_gateway_ping_seconds',
      'bot_gateway_events_total',
      'bot_accruals_flush_lag_seconds',
      'bot_accruals_pending_members',
      'bot_accruals_flush_duration_seconds',
      'bot_store_size_bytes',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      assert.match(response.text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exposed`);
    }
    // The in-memory store of tests has pages; the bot has been through READY and GUILD_CREATE.
    assert.ok((sample(response.text, 'bot_store_size_bytes') ?? 0) > 0);
    assert.ok((sample(response.text, 'bot_gateway_events_total', { type: 'READY' }) ?? 0) >= 1);
  });

  test('requests are counted under their route pattern, never their raw path', async () => {
    const { product, guildId, demo, signIn } = harness();
    const admin = await signIn(demo.adminUserId);
    await admin.get(`/api/servers/${guildId}/settings`).expect(200);
    await request(product.url).get(`/api/servers/${guildId}/leaderboard/levels`).expect(401);
    await request(product.url).get('/api/no/such/route/123456789').expect(404);
    const text = await scrape();
    assert.ok((sample(text, 'bot_http_request_duration_seconds_count', { method: 'GET', route: '/api/servers/:guildId/settings', status: '200' }) ?? 0) >= 1);
    assert.ok((sample(text, 'bot_http_request_duration_seconds_count', { route: '/api/servers/:guildId/leaderboard/levels', status: '401' }) ?? 0) >= 1);
    assert.ok((sample(text, 'bot_http_request_duration_seconds_count', { route: '/api/*', status: '404' }) ?? 0) >= 1);
    assert.doesNotMatch(text, new RegExp(guildId), 'no label holds a guild id');
    assert.doesNotMatch(text, /123456789/);
  });

  test('gateway events and XP flushes are counted as members chat', async () => {
    const { product, control, demo } = harness();
    const before = sample(await scrape(), 'bot_gateway_events_total', { type: 'MESSAGE_CREATE' }) ?? 0;
    const posted = await control('POST', `/channels/${demo.channels.general}/messages/bulk`, { count: 20 });
    assert.equal(posted.status, 201);
    await waitFor(
      async () => (sample(await scrape(), 'bot_gateway_events_total', { type: 'MESSAGE_CREATE' }) ?? 0) >= before + 20,
      5000,
      '20 more MESSAGE_CREATE',
    );
    await levelingState.of(product.services).accruals.flush();
    const text = await scrape();
    assert.ok((sample(text, 'bot_accruals_flush_duration_seconds_count', { outcome: 'ok' }) ?? 0) >= 1);
    assert.equal(sample(text, 'bot_accruals_flush_lag_seconds'), 0);
  });
});
