// Security headers on every answer: a strict Content-Security-Policy the dashboard works under
// (no inline script; styles only from our files or with the page's nonce; images from the CDN),
// nosniff, no framing, a referrer policy, and HSTS when the public URL is https.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import type { Store } from '../../src/db/store';
import { buildApp, createWebRoot, testConfig } from '../helpers/app';
import { createTestStore } from '../helpers/store';

/** The CSP header as a map of directive -> sources. */
function directives(header: string | undefined): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

describe('security headers', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let web: Awaited<ReturnType<typeof createWebRoot>>;
  before(async () => {
    ({ store, dispose } = await createTestStore());
    web = await createWebRoot();
  });
  after(async () => {
    await dispose();
    await web.dispose();
  });

  const app = (publicUrl = 'http://localhost:3000') => buildApp(store, { webRoot: web.root, config: { ...testConfig(), publicUrl } }).callback();

  test('the dashboard page: a CSP with no inline script, a fresh style nonce handed to the page, and the CDN for images', async () => {
    const first = await request(app()).get('/servers').expect(200);
    const second = await request(app()).get('/servers').expect(200);
    const csp = directives(first.headers['content-security-policy']);
    assert.deepEqual(csp.get('default-src'), ["'self'"]);
    assert.deepEqual(csp.get('script-src'), ["'self'"]);
    assert.deepEqual(csp.get('object-src'), ["'none'"]);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(csp.get('base-uri'), ["'self'"]);
    assert.ok(csp.get('img-src')?.includes('https://cdn.discordapp.com'), `img-src allows the CDN: ${csp.get('img-src')}`);
    const styleNonce = csp.get('style-src')?.find((source) => source.startsWith("'nonce-"));
    assert.ok(styleNonce, 'style-src carries a nonce for the UI library style elements');
    assert.ok(!csp.get('style-src')?.includes("'unsafe-inline'"));
    const pageNonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(first.text)?.[1];
    assert.equal(styleNonce, `'nonce-${pageNonce}'`, 'the page is given the nonce of its own header');
    assert.notEqual(second.headers['content-security-policy'], first.headers['content-security-policy'], 'a fresh nonce per page');
    assert.doesNotMatch(first.headers['content-security-policy'] ?? '', /upgrade-insecure-requests/, 'not over plain http');
  });

  test('every answer (page, asset, API, error) carries nosniff, DENY framing and the referrer policy', async () => {
    for (const path of ['/', web.asset, '/api/health', '/api/nothing-here', '/assets/missing.js']) {
      const response = await request(app()).get(path);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(response.headers['x-frame-options'], 'DENY', path);
      assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin', path);
      assert.match(response.headers['content-security-policy'] ?? '', /frame-ancestors 'none'/, path);
      assert.equal(response.headers['x-powered-by'], undefined, path);
      assert.equal(response.headers['strict-transport-security'], undefined, `${path}: no HSTS over http`);
    }
  });

  test('HSTS and upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    const response = await request(app('https://bot.example.com')).get('/').expect(200);
    assert.match(response.headers['strict-transport-security'] ?? '', /max-age=\d{8}/);
    assert.match(response.headers['content-security-policy'] ?? '', /upgrade-insecure-requests/);
  });
});
