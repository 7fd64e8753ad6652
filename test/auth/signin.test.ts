import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import { CurrentUserSchema, ServerListSchema } from '../../src/shared/auth';
import type { Product } from '../../src/main';
import { browserAgent, consentAs, signInAs, startTestProduct } from '../helpers/product';
import { createTestStore } from '../helpers/store';
import { buildApp } from '../helpers/app';

describe('sign-in with Discord (through the sandbox)', () => {
  let product: Product;
  before(async () => {
    product = await startTestProduct();
  });
  after(() => product.close());

  test('the code flow signs the user in and lands on the requested path', async () => {
    const admin = product.sandbox?.world.demo.adminUserId ?? '';
    const session = await signInAs(product, admin, '/servers?tab=1');
    assert.equal(session.redirectTo, '/servers?tab=1');
    const me = CurrentUserSchema.parse((await session.get('/api/auth/me').expect(200)).body);
    assert.equal(me.discordId, admin);
    const servers = ServerListSchema.parse((await session.get('/api/auth/servers').expect(200)).body);
    const demo = servers.find((server) => server.id === product.sandbox?.world.demo.guildId);
    assert.equal(demo?.hasBot, true);
    assert.equal(demo?.memberCount, product.client.guilds.cache.get(demo?.id ?? '')?.memberCount);
    const second = servers.find((server) => server.id === product.sandbox?.world.demo.secondGuildId);
    assert.equal(second?.hasBot, false);
    assert.equal(second?.owner, true);
  });

  test('the authorize redirect carries our callback, the scopes and a fresh state', async () => {
    const browser = browserAgent(product);
    const first = new URL((await browser.get('/api/auth/discord/login').expect(302)).headers.location ?? '');
    const second = new URL((await browser.get('/api/auth/discord/login').expect(302)).headers.location ?? '');
    assert.equal(first.searchParams.get('redirect_uri'), `${product.config.publicUrl}/auth/callback`);
    assert.equal(first.searchParams.get('scope'), 'identify guilds');
    assert.equal(first.searchParams.get('response_type'), 'code');
    assert.ok((first.searchParams.get('state') ?? '').length >= 43);
    assert.notEqual(first.searchParams.get('state'), second.searchParams.get('state'));
  });

  test('a tampered state is refused and signs nobody in', async () => {
    const browser = browserAgent(product);
    const login = await browser.get('/api/auth/discord/login').expect(302);
    const callback = await consentAs(login.headers.location ?? '', product.sandbox?.world.demo.adminUserId ?? '');
    const response = await browser.post('/api/auth/discord/callback', { code: callback.searchParams.get('code'), state: 'forged-state' }).expect(400);
    assert.equal(response.body.error, 'bad_state');
    await browser.get('/api/auth/me').expect(401);
  });

  test('a state from another browser session is refused', async () => {
    const victim = browserAgent(product);
    const attacker = browserAgent(product);
    const login = await attacker.get('/api/auth/discord/login').expect(302);
    const callback = await consentAs(login.headers.location ?? '', product.sandbox?.world.demo.adminUserId ?? '');
    await victim.post('/api/auth/discord/callback', { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') }).expect(400);
    await victim.get('/api/auth/me').expect(401);
  });

  test('a reused code is refused', async () => {
    const session = await signInAs(product, product.sandbox?.world.demo.adminUserId ?? '');
    const again = browserAgent(product);
    const login = await again.get('/api/auth/discord/login').expect(302);
    const state = new URL(login.headers.location ?? '').searchParams.get('state');
    const response = await again.post('/api/auth/discord/callback', { code: session.code, state }).expect(400);
    assert.equal(response.body.error, 'exchange_failed');
    await again.get('/api/auth/me').expect(401);
  });

  test('a state is single use', async () => {
    const session = await signInAs(product, product.sandbox?.world.demo.adminUserId ?? '');
    const response = await session.post('/api/auth/discord/callback', { code: session.code, state: session.state }).expect(400);
    assert.equal(response.body.error, 'bad_state');
  });

  test('a foreign redirect is replaced by a path of our own', async () => {
    for (const redirect of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/.//evil.example',
      '/%2e%2e//evil.example',
      '/a/..//evil.example',
      '/\t/evil.example',
    ]) {
      const session = await signInAs(product, product.sandbox?.world.demo.adminUserId ?? '', redirect);
      assert.equal(session.redirectTo, '/', redirect);
    }
  });

  test('a missing code or state answers 400 naming the field', async () => {
    const browser = browserAgent(product);
    const response = await browser.post('/api/auth/discord/callback', { state: 'x' }).expect(400);
    assert.equal(response.body.fields.code, 'Code is required.');
  });

  test('the session cookie is httpOnly and SameSite=Lax, and its id is a fresh 256-bit value after sign-in', async () => {
    const browser = browserAgent(product);
    const login = await browser.get('/api/auth/discord/login').expect(302);
    const before = (login.headers['set-cookie'] as unknown as string[]).find((cookie) => cookie.startsWith('sid='));
    assert.match(before ?? '', /; httponly/i);
    assert.match(before ?? '', /; samesite=lax/i);
    assert.match(before ?? '', /; path=\//i);
    const callback = await consentAs(login.headers.location ?? '', product.sandbox?.world.demo.adminUserId ?? '');
    const signed = await browser
      .post('/api/auth/discord/callback', { code: callback.searchParams.get('code'), state: callback.searchParams.get('state') })
      .expect(200);
    const after = (signed.headers['set-cookie'] as unknown as string[]).filter((cookie) => cookie.startsWith('sid=')).at(-1) ?? '';
    const id = /^sid=([^;]+)/.exec(after)?.[1] ?? '';
    assert.equal(Buffer.from(id, 'base64url').length, 32);
    assert.notEqual(id, /^sid=([^;]+)/.exec(before ?? '')?.[1]);
  });

  test("logout of the user's only session ends it and revokes the Discord token", async () => {
    const session = await signInAs(product, product.sandbox?.world.demo.otherAdminUserId ?? '');
    await session.post('/api/auth/logout').expect(204);
    await session.get('/api/auth/me').expect(401);
    const user = await product.store.models.Account.findOne({ where: { userId: product.sandbox?.world.demo.otherAdminUserId } });
    assert.equal(user?.accessToken, null);
    assert.equal(user?.refreshToken, null);
  });

  test('tokens in the store are encrypted, never plaintext', async () => {
    const admin = product.sandbox?.world.demo.adminUserId ?? '';
    await signInAs(product, admin);
    const [rows] = await product.store.sequelize.query('SELECT "accessToken", "refreshToken" FROM accounts WHERE "userId" = ?', { replacements: [admin] });
    const row = (rows as { accessToken: string; refreshToken: string }[])[0];
    assert.match(row?.accessToken ?? '', /^v1:/);
    assert.match(row?.refreshToken ?? '', /^v1:/);
    const grants = product.sandbox?.world.demo ? await fetch(`${product.sandbox.url}/_sandbox/state`).then((r) => r.text()) : '';
    assert.ok(grants.length > 0);
    const [sessions] = await product.store.sequelize.query('SELECT data FROM sessions');
    assert.doesNotMatch(JSON.stringify(sessions), /accessToken|refreshToken/);
  });

  test('a cross-site POST is refused with 403', async () => {
    const response = await request(product.url).post('/api/auth/logout').set('Origin', 'https://evil.example').expect(403);
    assert.equal(response.body.error, 'forbidden');
    await request(product.url).post('/api/auth/logout').set('Sec-Fetch-Site', 'cross-site').expect(403);
    await request(product.url).post('/api/auth/logout').expect(403);
    await request(product.url).post('/api/auth/logout').set('Sec-Fetch-Site', 'same-origin').expect(204);
  });

  test('a non-JSON body is refused with 415', async () => {
    const browser = browserAgent(product);
    await browser.agent.post('/api/auth/discord/callback').set('Origin', product.config.publicUrl).type('form').send('code=a&state=b').expect(415);
  });

  test('the demo login makes the user an admin of the demo guild and signs them in', async () => {
    const browser = browserAgent(product);
    const response = await browser.post('/api/auth/mock-login', { username: 'demo_tester', id: '123456789012345678', discriminator: '0000' }).expect(200);
    assert.equal(response.body.user.username, 'demo_tester');
    assert.equal(response.body.redirectTo, '/dashboard');
    const servers = ServerListSchema.parse((await browser.get('/api/auth/servers').expect(200)).body);
    assert.ok(servers.some((server) => server.id === product.sandbox?.world.demo.guildId && server.hasBot));
    await browser.get(`/api/servers/${product.sandbox?.world.demo.guildId}/overview`).expect(200);
  });

  test('the demo login validates its body', async () => {
    const response = await browserAgent(product).post('/api/auth/mock-login', { username: 'x', id: 'abc' }).expect(400);
    assert.ok(response.body.fields.username);
    assert.ok(response.body.fields.id);
  });
});

describe('with a Discord token configured', () => {
  test('the demo login does not exist (404) and cookies are __Host- and Secure over https', async () => {
    const { store, dispose } = await createTestStore();
    try {
      const app = buildApp(store, {
        config: { ...(await import('../helpers/app')).testConfig(), mode: 'discord', publicUrl: 'https://bot.example.com' },
      }).callback();
      await request(app).post('/api/auth/mock-login').set('Origin', 'https://bot.example.com').send({ username: 'abc', id: '123456789012345678' }).expect(404);
      const login = await request(app).get('/api/auth/discord/login').set('X-Forwarded-Proto', 'https').expect(302);
      const cookie = (login.headers['set-cookie'] as unknown as string[])[0] ?? '';
      assert.match(cookie, /^__Host-sid=/);
      assert.match(cookie, /; secure/i);
      assert.match(cookie, /; httponly/i);
      assert.doesNotMatch(cookie, /; domain=/i);
      assert.match(new URL(login.headers.location ?? '').origin, /^https:\/\/discord\.com$/);
    } finally {
      await dispose();
    }
  });
});

describe('rate limits', () => {
  test('sign-in attempts past the limit answer 429 with Retry-After, and writes are limited per session', async () => {
    const product = await startTestProduct({}, { rateLimits: { auth: { max: 3, durationMs: 60_000 }, mutations: { max: 2, durationMs: 60_000 } } });
    try {
      const browser = browserAgent(product);
      for (let i = 0; i < 3; i += 1) await browser.get('/api/auth/discord/login').expect(302);
      const limited = await browser.get('/api/auth/discord/login').expect(429);
      assert.equal(limited.body.error, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);

      const other = browserAgent(product);
      await other.post('/api/auth/logout').expect(204);
      await other.post('/api/auth/logout').expect(204);
      await other.post('/api/auth/logout').expect(429);
      await other.get('/api/health').expect(200);
    } finally {
      await product.close();
    }
  });
});
