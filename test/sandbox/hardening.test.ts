// The sandbox listens on a port any web page in the developer's browser can reach. It must not
// send sign-in codes anywhere but the registered callback, and its control API must not be
// drivable by a cross-site page or readable through DNS rebinding.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox';

const REGISTERED = 'http://localhost:3000/auth/callback';

/** A raw request, so the Host header can be anything (fetch does not let us set it). */
function raw(
  sandbox: Sandbox,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const url = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('sandbox port hardening', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 40, redirectUris: [REGISTERED] });
  });
  after(() => sandbox.close());

  const authorize = (redirect: string) => {
    const params = new URLSearchParams({
      client_id: sandbox.oauth.clientId,
      redirect_uri: redirect,
      response_type: 'code',
      scope: 'identify guilds',
      state: 's',
    });
    return `${sandbox.url}/oauth2/authorize?${params}`;
  };
  const consent = (redirect: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}/oauth2/authorize`, {
      method: 'POST',
      headers,
      body: new URLSearchParams({
        client_id: sandbox.oauth.clientId,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'identify',
        state: 's',
        user_id: sandbox.world.demo.adminUserId,
        action: 'authorize',
      }),
      redirect: 'manual',
    });

  it('sends the code only to a registered redirect_uri; any other is a 400 page, never a redirect or a 500', async () => {
    assert.equal((await fetch(authorize(REGISTERED))).status, 200);
    const registered = await consent(REGISTERED);
    assert.equal(registered.status, 302);
    assert.match(registered.headers.get('location') ?? '', /^http:\/\/localhost:3000\/auth\/callback\?code=/);
    for (const redirect of [
      'https://evil.example/cb',
      '//evil.example',
      'http://localhost:3000/auth/callback/../steal',
      'http://localhost:3000/auth/callback?x=1',
      'javascript:alert(1)',
      'not a url',
    ]) {
      const page = await fetch(authorize(redirect));
      assert.equal(page.status, 400, redirect);
      assert.match(await page.text(), /redirect_uri/);
      const posted = await consent(redirect);
      assert.equal(posted.status, 400, `${redirect} (consent)`);
      assert.equal(posted.headers.get('location'), null);
    }
  });

  it('a new redirect can be registered at run time (the dashboard knows its port after listening)', async () => {
    const later = 'http://localhost:4567/auth/callback';
    assert.equal((await consent(later)).status, 400);
    sandbox.oauth.registerRedirectUri(later);
    assert.equal((await consent(later)).status, 302);
  });

  it('refuses a cross-site consent post', async () => {
    assert.equal((await consent(REGISTERED, { Origin: 'https://evil.example' })).status, 403);
    assert.equal((await consent(REGISTERED, { 'Sec-Fetch-Site': 'cross-site' })).status, 403);
    assert.equal((await consent(REGISTERED, { Origin: new URL(sandbox.url).origin, 'Sec-Fetch-Site': 'same-origin' })).status, 302);
  });

  it('the control API takes JSON bodies only', async () => {
    const path = `/_sandbox/guilds/${sandbox.world.demo.guildId}/members`;
    const json = JSON.stringify({ username: 'plain_text_join' });
    const host = new URL(sandbox.url).host;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await raw(sandbox, { method: 'POST', path, headers: { Host: host, 'Content-Type': type }, body: json });
      assert.equal(response.status, 415, type);
    }
    const missing = await raw(sandbox, { method: 'POST', path, headers: { Host: host }, body: json });
    assert.equal(missing.status, 415, 'no content type');
    const ok = await raw(sandbox, { method: 'POST', path, headers: { Host: host, 'Content-Type': 'application/json' }, body: json });
    assert.equal(ok.status, 201);
  });

  it('the control API answers only a loopback Host (no DNS rebinding), reads included', async () => {
    const port = new URL(sandbox.url).port;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.nip.io:${port}`, `localhost.evil.example:${port}`]) {
      const response = await raw(sandbox, { path: '/_sandbox/state', headers: { Host: host } });
      assert.equal(response.status, 403, `Host: ${host}`);
      assert.doesNotMatch(response.body, /guilds/);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      assert.equal((await raw(sandbox, { path: '/_sandbox/state', headers: { Host: host } })).status, 200, `Host: ${host}`);
    }
  });

  it('the control API refuses cross-site writes', async () => {
    const path = `/_sandbox/faults`;
    const body = JSON.stringify({ clear: true });
    const host = new URL(sandbox.url).host;
    const headers = { Host: host, 'Content-Type': 'application/json' };
    assert.equal((await raw(sandbox, { method: 'POST', path, headers: { ...headers, Origin: 'https://evil.example' }, body })).status, 403);
    assert.equal((await raw(sandbox, { method: 'POST', path, headers: { ...headers, 'Sec-Fetch-Site': 'cross-site' }, body })).status, 403);
    assert.equal((await raw(sandbox, { method: 'POST', path, headers: { ...headers, 'Sec-Fetch-Site': 'same-site' }, body })).status, 403);
    assert.equal((await raw(sandbox, { method: 'POST', path, headers, body })).status, 204, 'a test or a script (no browser headers) may');
  });
});
