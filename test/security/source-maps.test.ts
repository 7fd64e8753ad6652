// Production builds publish no source maps: the dashboard's .map files held the full source.
// `npm test` builds in production mode first, so dist/web is what `npm start` would serve.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import type { Store } from '../../src/db/store';
import { buildApp } from '../helpers/app';
import { createTestStore } from '../helpers/store';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');

describe('source maps in the production build', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  let files: string[];
  before(async () => {
    ({ store, dispose } = await createTestStore());
    files = (await readdir(webRoot, { recursive: true })).map(String);
  });
  after(() => dispose());

  test('dist/web holds no .map file and no script points at one', async () => {
    assert.ok(
      files.some((file) => file.endsWith('.js')),
      'the dashboard is built',
    );
    assert.deepEqual(
      files.filter((file) => file.endsWith('.map')),
      [],
    );
    for (const file of files.filter((name) => /\.(js|css)$/.test(name))) {
      assert.doesNotMatch(await readFile(path.join(webRoot, file), 'utf8'), /sourceMappingURL/, file);
    }
  });

  test('asking for the map of a served script answers 404', async () => {
    const script = files.find((file) => /^assets\/main-.*\.js$/.test(file.split(path.sep).join('/')));
    assert.ok(script);
    const app = buildApp(store, { webRoot }).callback();
    await request(app)
      .get(`/${script.split(path.sep).join('/')}`)
      .expect(200);
    await request(app)
      .get(`/${script.split(path.sep).join('/')}.map`)
      .expect(404);
  });
});
