// What the built dashboard sends (issue 13): /login within its budget and without the signed-in
// code, the entry's chunks preloaded by the served page, and every text asset precompressed.
// Computed from the build (dist/web: `npm run build` first), not timed.
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import type { Store } from '../../src/db/store';
import { buildApp } from '../helpers/app';
import { createTestStore } from '../helpers/store';
import { readWebBuild, webRoot, type WebBuild } from '../helpers/web-build';

/** The most JavaScript and CSS /login may load, gzip-compressed. */
const LOGIN_BUDGET_GZIP_BYTES = 110 * 1024;

/** What a gzip-only client receives for a built file: its .gz copy, or the file when the build wrote none. */
async function gzipBytes(publicPath: string): Promise<number> {
  const file = path.join(webRoot, publicPath);
  const copy = await stat(`${file}.gz`).catch(() => null);
  return copy ? copy.size : (await stat(file)).size;
}

describe('the built dashboard', () => {
  let build: WebBuild;
  let store: Store;
  let dispose: () => Promise<void>;
  before(async () => {
    build = await readWebBuild();
    ({ store, dispose } = await createTestStore());
  });
  after(() => dispose());

  test(`/login loads at most ${LOGIN_BUDGET_GZIP_BYTES / 1024} KB of JS and CSS, gzip`, async () => {
    const files = [...build.routeFiles(['web/pages/login.tsx'])].map(build.publicPath);
    const sizes = await Promise.all(files.map(async (file) => ({ file, bytes: await gzipBytes(file) })));
    const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
    const largest = sizes
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5)
      .map(({ file, bytes }) => `${file} ${(bytes / 1024).toFixed(1)} KB`);
    assert.ok(total <= LOGIN_BUDGET_GZIP_BYTES, `/login loads ${(total / 1024).toFixed(1)} KB gzip in ${files.length} files; largest: ${largest.join(', ')}`);
  });

  test('/login loads neither zod, nor the query library, nor the signed-in shell', () => {
    const files = build.routeFiles(['web/pages/login.tsx']);
    const inputs = [...files].flatMap((file) => Object.keys(build.metafile.outputs[file]?.inputs ?? {}));
    const offending = inputs.filter((input) => /node_modules\/(zod|@tanstack)\/|web\/signed-in-routes|web\/components\/layout\//.test(input));
    assert.deepEqual(offending, []);
  });

  test('the served page preloads every chunk the entry imports, with its CSP nonce in place', async () => {
    const main = build.outputOf('web/main.tsx');
    const chunks = [...build.staticGraph(main)].filter((file) => file !== main).map(build.publicPath);
    assert.ok(chunks.length > 0);
    const response = await request(buildApp(store, { webRoot }).callback()).get('/login').expect(200);
    const preloaded = [...response.text.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]);
    assert.deepEqual(preloaded.sort(), chunks.sort());
    assert.doesNotMatch(response.text, /__CSP_NONCE__/);
    assert.match(response.text, new RegExp(`<script type="module" src="${build.publicPath(main)}"></script>`));
  });

  test('every script and stylesheet has a brotli and a gzip copy (unless compressing does not shrink it)', async () => {
    const files = (await readdir(path.join(webRoot, 'assets'), { recursive: true })).map(String).filter((file) => /\.(js|css)$/.test(file));
    assert.ok(files.length > 0);
    for (const file of files) {
      const full = path.join(webRoot, 'assets', file);
      const size = (await stat(full)).size;
      for (const suffix of ['.br', '.gz']) {
        const copy = await stat(full + suffix).catch(() => null);
        if (copy) assert.ok(copy.size < size, `${file}${suffix} is smaller than ${file}`);
        else assert.ok(size < 200, `${file} (${size} bytes) has a ${suffix} copy`);
      }
    }
  });
});
