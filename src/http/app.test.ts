import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import { HealthSchema } from '../shared/health';
import { buildApp, createWebRoot } from '../../test/helpers/app';
import { createTestStore } from '../../test/helpers/store';
import type { Store } from '../db/store';

describe('HTTP face', () => {
  let store: Store;
  let disposeStore: () => Promise<void>;
  let web: Awaited<ReturnType<typeof createWebRoot>>;

  before(async () => {
    ({ store, dispose: disposeStore } = await createTestStore());
    web = await createWebRoot();
  });
  after(async () => {
    await disposeStore();
    await web.dispose();
  });

  test('GET /api/health reports the store and a gateway that is not configured', async () => {
    const response = await request(buildApp(store).callback()).get('/api/health').expect(200);
    const health = HealthSchema.parse(response.body);
    assert.deepEqual(health, { status: 'ok', gateway: { status: 'not_configured', ping: -1, guilds: 0 }, db: 'ok' });
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  test('GET /api/health answers 503 degraded when the store is down', async () => {
    const broken = { ...store, ping: async () => false };
    const response = await request(buildApp(broken).callback()).get('/api/health').expect(503);
    assert.equal(response.body.status, 'degraded');
    assert.equal(response.body.db, 'error');
  });

  test('a burst of GET /api/health asks the store once, and again after a second', async (t) => {
    // The store check's second runs on Date.now: mocked and moved on, not slept through.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    let pings = 0;
    const counted = { ...store, ping: async () => (pings++, true) };
    const app = buildApp(counted).callback();
    await Promise.all(Array.from({ length: 20 }, () => request(app).get('/api/health').expect(200)));
    assert.equal(pings, 1);
    t.mock.timers.tick(999);
    await request(app).get('/api/health').expect(200);
    assert.equal(pings, 1, 'still believed just before the second is up');
    t.mock.timers.tick(2);
    await request(app).get('/api/health').expect(200);
    assert.equal(pings, 2);
  });

  test('hashed assets are cached for a year as immutable', async () => {
    const response = await request(buildApp(store, { webRoot: web.root }).callback())
      .get(web.asset)
      .expect(200);
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(response.text, /console\.log/);
  });

  test('a missing asset is a 404, not the index page', async () => {
    const response = await request(buildApp(store, { webRoot: web.root }).callback())
      .get('/assets/missing-XYZ.js')
      .expect(404);
    assert.equal(response.body.error, 'not_found');
    assert.equal(response.headers['cache-control'], undefined);
  });

  test('client routes fall back to index.html, never cached', async () => {
    const app = buildApp(store, { webRoot: web.root }).callback();
    for (const path of ['/', '/login', '/server/123/economy', '/no/such/page']) {
      const response = await request(app).get(path).expect(200);
      assert.match(response.headers['content-type'] ?? '', /text\/html/);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(response.text, /<div id="root">/);
    }
  });

  test('unknown /api paths answer 404 JSON', async () => {
    const app = buildApp(store, { webRoot: web.root }).callback();
    const response = await request(app).get('/api/nothing-here').expect(404);
    assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
    assert.equal(response.body.error, 'not_found');
    await request(app).post('/api/nothing-here').set('Origin', 'http://localhost:3000').set('Content-Type', 'application/json').send('{}').expect(404);
  });

  test('a malformed JSON body answers 400 JSON without internals', async () => {
    const app = buildApp(store, { webRoot: web.root }).callback();
    const response = await request(app).post('/api/health').set('Origin', 'http://localhost:3000').set('Content-Type', 'application/json').send('{"broken":');
    assert.equal(response.status, 400);
    assert.equal(response.body.error, 'bad_request');
  });
});
