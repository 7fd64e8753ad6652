// The dashboard's files: hashed assets sent as the build's brotli or gzip copy by Accept-Encoding,
// and the page (index.html) compressed per response, since each carries its own CSP nonce.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { buildApp } from '../../test/helpers/app';
import { rawGet } from '../../test/helpers/raw-http';
import { createTestStore } from '../../test/helpers/store';
import type { Store } from '../db/store';

const script = Buffer.from(`export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`);
const page =
  `<!doctype html><meta name="csp-nonce" ` +
  `content="__CSP_NONCE__"><title>dashboard</title>${'<link rel="modulepreload" href="/assets/chunks/chunk-ABCDEFGH.js">'.repeat(30)}<div id="root"></div>`;
const BROWSER = 'gzip, deflate, br, zstd';

describe('serving the built dashboard', () => {
  let store: Store;
  let disposeStore: () => Promise<void>;
  let root: string;
  let app: ReturnType<ReturnType<typeof buildApp>['callback']>;
  before(async () => {
    ({ store, dispose: disposeStore } = await createTestStore());
    root = await mkdtemp(path.join(tmpdir(), 'web-'));
    await mkdir(path.join(root, 'assets/media'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), page);
    await writeFile(path.join(root, 'assets/main-ABC123.js'), script);
    await writeFile(path.join(root, 'assets/main-ABC123.js.br'), brotliCompressSync(script));
    await writeFile(path.join(root, 'assets/main-ABC123.js.gz'), gzipSync(script));
    await writeFile(path.join(root, 'assets/only-gzip-ABC123.css'), script);
    await writeFile(path.join(root, 'assets/only-gzip-ABC123.css.gz'), gzipSync(script));
    await writeFile(path.join(root, 'assets/media/logo-ABC123.png'), Buffer.alloc(2048, 7));
    app = buildApp(store, { webRoot: root }).callback();
  });
  after(async () => {
    await disposeStore();
    await rm(root, { recursive: true, force: true });
  });

  test("a browser gets the asset's brotli copy, with its own type, the year-long cache and Vary", async () => {
    const response = await rawGet(app, '/assets/main-ABC123.js', { 'Accept-Encoding': BROWSER });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-encoding'], 'br');
    assert.match(response.headers['content-type'] ?? '', /^(text|application)\/javascript/);
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(response.headers.vary ?? '', /Accept-Encoding/);
    assert.equal(Number(response.headers['content-length']), response.body.length);
    assert.deepEqual(brotliDecompressSync(response.body), script);
  });

  test('a client without brotli gets the gzip copy', async () => {
    const response = await rawGet(app, '/assets/main-ABC123.js', { 'Accept-Encoding': 'gzip, deflate' });
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.match(response.headers['content-type'] ?? '', /^(text|application)\/javascript/);
    assert.deepEqual(gunzipSync(response.body), script);
  });

  test('a client that takes neither (or says nothing) gets the file itself, still told it varies', async () => {
    const cases: Record<string, string>[] = [{}, { 'Accept-Encoding': 'deflate' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }];
    for (const headers of cases) {
      const response = await rawGet(app, '/assets/main-ABC123.js', headers);
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.match(response.headers.vary ?? '', /Accept-Encoding/);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.deepEqual(response.body, script);
    }
  });

  test('only the copies the build wrote are offered; an image has none and no Vary', async () => {
    const css = await rawGet(app, '/assets/only-gzip-ABC123.css', { 'Accept-Encoding': BROWSER });
    assert.equal(css.headers['content-encoding'], 'gzip');
    assert.match(css.headers['content-type'] ?? '', /^text\/css/);
    const image = await rawGet(app, '/assets/media/logo-ABC123.png', { 'Accept-Encoding': BROWSER });
    assert.equal(image.headers['content-encoding'], undefined);
    assert.equal(image.headers.vary, undefined);
    assert.equal(image.headers['content-type'], 'image/png');
  });

  test('a missing asset is a 404 without an encoding or the cache header', async () => {
    const response = await rawGet(app, '/assets/missing-XYZ.js', { 'Accept-Encoding': BROWSER });
    assert.equal(response.status, 404);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(response.headers['cache-control'], undefined);
  });

  test("the page is compressed per response, each with its own response's nonce", async () => {
    const nonces = new Set<string>();
    const clients: [string, (compressed: Buffer) => Buffer][] = [
      ['gzip, deflate, br', (compressed) => brotliDecompressSync(compressed)],
      ['gzip', (compressed) => gunzipSync(compressed)],
    ];
    for (const [accept, decode] of clients) {
      const response = await rawGet(app, '/login', { 'Accept-Encoding': accept });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-encoding'], accept === 'gzip' ? 'gzip' : 'br');
      assert.match(response.headers.vary ?? '', /Accept-Encoding/);
      assert.equal(response.headers['cache-control'], 'no-cache');
      const html = decode(response.body).toString();
      const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(html)?.[1] ?? '';
      assert.ok(nonce && nonce !== '__CSP_NONCE__');
      assert.ok(String(response.headers['content-security-policy']).includes(`'nonce-${nonce}'`), 'the nonce of its own CSP header');
      nonces.add(nonce);
    }
    assert.equal(nonces.size, 2, 'a fresh nonce per response');
    const identity = await rawGet(app, '/login');
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.match(identity.body.toString(), /<div id="root">/);
  });
});
