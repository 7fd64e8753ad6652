// The sandbox under /_discord on the dashboard's port: a browser signs in through one origin (what a
// container publishing one port needs), while REST, the OAuth2 token endpoint and the control API
// stay reachable only from this machine. The dashboard's port listens on every interface, so a
// request from elsewhere must find nothing there but the consent page, avatars and the channel view.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import type { Product } from '../../src/main';
import { isBrowserRoute, isFromThisMachine, isLoopbackAddress } from '../../src/sandbox/mount';
import { signInThroughDashboard } from '../helpers/dashboard-signin';
import { outsideAddress } from '../helpers/network';
import { startTestProduct } from '../helpers/product';

/** A raw request, so the Host header can be anything (fetch does not let us set it). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, method: options.method ?? 'GET', path: `${target.pathname}${target.search}`, headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('who counts as this machine', () => {
  const req = (remoteAddress: string | undefined, headers: http.IncomingHttpHeaders) => ({ socket: { remoteAddress }, headers });

  it('a loopback socket naming a loopback host, without proxy headers', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackAddress(address), address);
    for (const address of ['192.0.2.7', '::ffff:192.0.2.7', '10.0.0.1', '172.17.0.1', 'fd00::2', '127.0.0.1.evil', '', undefined]) {
      assert.ok(!isLoopbackAddress(address), String(address));
    }
    assert.ok(isFromThisMachine(req('127.0.0.1', { host: '127.0.0.1:3000' })));
    assert.ok(isFromThisMachine(req('::1', { host: '[::1]:3000' })));
    assert.ok(isFromThisMachine(req('::ffff:127.0.0.1', { host: 'localhost:3000' })));
  });

  it('not another host (a container publishing its port sees the bridge or the client), a rebinding Host, or a relayed request', () => {
    assert.ok(!isFromThisMachine(req('172.17.0.1', { host: 'localhost:3000' })), 'Docker publishes ports from the bridge address');
    assert.ok(!isFromThisMachine(req('192.0.2.7', { host: 'localhost:3000' })));
    assert.ok(!isFromThisMachine(req('127.0.0.1', { host: 'evil.example:3000' })), 'DNS rebinding');
    assert.ok(!isFromThisMachine(req('127.0.0.1', {})), 'no Host');
    for (const header of ['x-forwarded-for', 'forwarded', 'x-forwarded-host', 'x-real-ip']) {
      assert.ok(!isFromThisMachine(req('127.0.0.1', { host: 'localhost:3000', [header]: '127.0.0.1' })), `a proxy on this machine relaying (${header})`);
    }
  });

  it('browser routes are the consent page and its form, the CDN and the channel view, nothing else', () => {
    assert.ok(isBrowserRoute('GET', '/oauth2/authorize'));
    assert.ok(isBrowserRoute('POST', '/oauth2/authorize'));
    assert.ok(isBrowserRoute('GET', '/cdn/avatars/1/abc.png'));
    assert.ok(isBrowserRoute('GET', '/channels/1/2/3'));
    for (const [method, path] of [
      ['GET', '/_sandbox/state'],
      ['POST', '/_sandbox/faults'],
      ['POST', '/api/oauth2/token'],
      ['GET', '/api/v10/users/@me'],
      ['GET', '/gateway'],
      ['PUT', '/oauth2/authorize'],
      ['POST', '/cdn/x'],
      ['GET', '/channels/x'],
      ['GET', '/oauth2/authorize/'],
      ['GET', '/'],
    ] as const) {
      assert.ok(!isBrowserRoute(method, path), `${method} ${path}`);
    }
  });
});

describe('the sandbox mounted on the dashboard port', () => {
  let product: Product;
  let origin: string;
  let port: string;
  before(async () => {
    product = await startTestProduct();
    origin = product.config.publicUrl;
    port = new URL(product.url).port;
  });
  after(() => product.close());

  const state = () => `${origin}/_discord/_sandbox/state`;
  const botGet = () => `${origin}/_discord/api/v10/users/@me`;
  const botAuth = () => ({ Authorization: `Bot ${product.sandbox?.botToken ?? ''}` });

  it("the dashboard's links (and discord.js's avatar URLs) lead browsers to /_discord on its own origin; the bot stays on the sandbox's loopback port", () => {
    const { meta } = product.services;
    assert.equal(meta.oauthBase, `${origin}/_discord`);
    assert.equal(meta.appBase, `${origin}/_discord`);
    assert.equal(meta.cdnBase, `${origin}/_discord/cdn`);
    assert.match(product.sandbox?.apiBase ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api$/);
    assert.ok(product.client.isReady());
    const avatar = product.client.user?.displayAvatarURL() ?? '';
    assert.ok(avatar.startsWith(`${origin}/_discord/cdn/`), `avatar URLs discord.js builds end up in pages: ${avatar}`);
  });

  it('"Continue with Discord" goes through the consent page under the same origin and back', async () => {
    const signIn = await signInThroughDashboard(origin);
    assert.equal(signIn.consentUrl.pathname, '/_discord/oauth2/authorize');
    assert.equal(signIn.formAction.pathname, '/_discord/oauth2/authorize', 'the form posts back under the mount');
    assert.equal(signIn.me.discordId, product.sandbox?.world.demo.adminUserId);
  });

  it("a consent form posted from another site is refused; the dashboard's public origin may post it", async () => {
    const login = await fetch(`${origin}/api/auth/discord/login`, { redirect: 'manual' });
    const authorize = new URL(login.headers.get('location') ?? '');
    const form = new URLSearchParams(authorize.searchParams);
    form.set('user_id', product.sandbox?.world.demo.adminUserId ?? '');
    form.set('action', 'authorize');
    const post = (headers: Record<string, string>) => fetch(`${origin}/_discord/oauth2/authorize`, { method: 'POST', headers, body: form, redirect: 'manual' });
    assert.equal((await post({ Origin: 'https://evil.example' })).status, 403);
    assert.equal((await post({ 'Sec-Fetch-Site': 'cross-site' })).status, 403);
    assert.equal((await post({ Origin: origin, 'Sec-Fetch-Site': 'same-origin' })).status, 302);
  });

  it('from this machine, REST, the token endpoint and the control API answer under the mount, with their own guards', async () => {
    assert.equal((await fetch(state())).status, 200);
    assert.equal((await fetch(botGet(), { headers: botAuth() })).status, 200);
    assert.equal((await fetch(botGet())).status, 401, 'REST still wants the bot token');
    const token = await fetch(`${origin}/_discord/api/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'nope' }),
    });
    assert.equal(token.status, 401, 'the token endpoint answers (and wants the client)');
    const write = await fetch(`${origin}/_discord/_sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: '{"clear":true}',
    });
    assert.equal(write.status, 403, 'a cross-site write is still refused');
  });

  it('a relayed request (proxy headers) or a foreign Host finds nothing but the browser routes: 404', async () => {
    const relayed = { 'X-Forwarded-For': '127.0.0.1' };
    assert.equal((await fetch(state(), { headers: relayed })).status, 404);
    assert.equal((await fetch(botGet(), { headers: { ...relayed, ...botAuth() } })).status, 404);
    assert.equal((await fetch(`${origin}/_discord/api/oauth2/token`, { method: 'POST', headers: relayed, body: 'grant_type=x' })).status, 404);
    assert.equal(
      (
        await fetch(`${origin}/_discord/_sandbox/faults`, {
          method: 'POST',
          headers: { ...relayed, 'Content-Type': 'application/json' },
          body: '{"clear":true}',
        })
      ).status,
      404,
    );
    for (const path of ['/_sandbox/state', '/api/v10/gateway', '/nothing']) {
      const response = await raw(`http://127.0.0.1:${port}/_discord${path}`, { headers: { Host: `evil.example:${port}` } });
      assert.equal(response.status, 404, `Host evil.example: ${path}`);
    }
    const demo = product.sandbox?.world.demo;
    assert.equal((await fetch(`${origin}/_discord/cdn/avatars/1/a.png`, { headers: relayed })).status, 200);
    assert.equal((await fetch(`${origin}/_discord/channels/${demo?.guildId}`, { headers: relayed })).status, 200);
    const login = await fetch(`${origin}/api/auth/discord/login`, { redirect: 'manual' });
    assert.equal((await fetch(login.headers.get('location') ?? '', { headers: relayed })).status, 200);
  });

  it('from another address of this host (as from another machine), the control API and REST are not there', async (t) => {
    const address = outsideAddress();
    if (!address) return t.skip('this machine has no non-loopback IPv4 address');
    const outside = `http://${address}:${port}`;
    assert.equal((await fetch(`${outside}/api/health`)).status, 200, 'the dashboard listens on every interface');
    assert.equal((await fetch(`${outside}/_discord/_sandbox/state`)).status, 404);
    assert.equal((await raw(`${outside}/_discord/_sandbox/state`, { headers: { Host: `localhost:${port}` } })).status, 404, 'even naming localhost');
    assert.equal((await fetch(`${outside}/_discord/api/v10/users/@me`, { headers: botAuth() })).status, 404);
    assert.equal((await fetch(`${outside}/_discord/cdn/avatars/1/a.png`)).status, 200);
  });

  it("mounted answers may not be framed and run no script but the channel view's, allowed by its hash", async () => {
    const { demo } = product.sandbox?.world ?? {};
    const message = product.sandbox?.world.messages.create(demo?.channels.general ?? '', { authorId: demo?.plainMemberId ?? '', content: 'look here' });
    const response = await fetch(`${origin}/_discord/channels/${demo?.guildId}/${demo?.channels.general}/${message?.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    const policy = response.headers.get('content-security-policy') ?? '';
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /frame-ancestors 'none'/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    assert.equal(scripts.length, 1);
    assert.ok(
      policy.includes(
        `'sha256-${createHash('sha256')
          .update(scripts[0] ?? '')
          .digest('base64')}'`,
      ),
      'the script is allowed by its hash',
    );
    assert.match(html, new RegExp(`data-mark="${message?.id}"`));
    assert.match(html, new RegExp(`href="/_discord/channels/${demo?.guildId}/`), 'the channel links stay under the mount');
  });

  it('only /_discord/ is the sandbox: the dashboard keeps every other path', async () => {
    const mounted = await fetch(`${origin}/_discord/cdn/a`);
    assert.match(mounted.headers.get('content-security-policy') ?? '', /sha256-/);
    const dashboard = await fetch(`${origin}/_discordian`);
    assert.doesNotMatch(dashboard.headers.get('content-security-policy') ?? '', /sha256-/, "the dashboard's own policy");
  });

  it("takes no WebSocket: the gateway stays on the sandbox's loopback port", async () => {
    const refused = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/_discord/gateway?v=10&encoding=json`);
      socket.on('open', () => reject(new Error('the mount accepted a WebSocket')));
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('error', () => resolve(0));
    });
    assert.equal(refused, 404);
    const gateway = (await (await fetch(botGet().replace('/users/@me', '/gateway'))).json()) as { url: string };
    assert.equal(gateway.url, product.sandbox?.gatewayUrl);
  });
});

describe('the sandbox mounted under a public URL that is not loopback (PUBLIC_URL behind a proxy)', () => {
  const PUBLIC = 'https://demo.example.com';
  let product: Product;
  before(async () => {
    product = await startTestProduct({ PUBLIC_URL: PUBLIC });
  });
  after(() => product.close());

  it('takes the consent form from that origin and names its pages by that Host, nothing else', async () => {
    assert.equal(product.services.meta.oauthBase, `${PUBLIC}/_discord`);
    const { sandbox } = product;
    const form = new URLSearchParams({
      client_id: sandbox?.oauth.clientId ?? '',
      redirect_uri: `${PUBLIC}/auth/callback`,
      response_type: 'code',
      scope: 'identify',
      state: 's',
      user_id: sandbox?.world.demo.adminUserId ?? '',
      action: 'authorize',
    }).toString();
    const post = (origin: string) =>
      raw(`${product.url}/_discord/oauth2/authorize`, {
        method: 'POST',
        headers: { Host: 'demo.example.com', Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
      });
    const accepted = await post(PUBLIC);
    assert.equal(accepted.status, 302);
    assert.match(accepted.headers.location ?? '', /^https:\/\/demo\.example\.com\/auth\/callback\?code=/);
    assert.equal((await post('https://other.example.com')).status, 403);

    const channel = `${product.url}/_discord/channels/${sandbox?.world.demo.guildId}`;
    assert.equal((await raw(channel, { headers: { Host: 'demo.example.com' } })).status, 200);
    assert.equal((await raw(channel, { headers: { Host: 'rebound.example.com' } })).status, 403, 'DNS rebinding');
    assert.equal(
      (await raw(`${product.url}/_discord/_sandbox/state`, { headers: { Host: 'demo.example.com' } })).status,
      404,
      'the public Host is not this machine',
    );
  });
});
