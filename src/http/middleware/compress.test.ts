import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { rawGet } from '../../../test/helpers/raw-http';
import { COMPRESS_MIN_BYTES, compressResponses } from './compress';

/** A JSON body of about `bytes` bytes. */
const jsonOf = (bytes: number) => ({ rows: 'x'.repeat(bytes - 11) });

/** An app answering `body` (and `type`, if given) behind the middleware. */
function appWith(body: () => unknown, type?: string) {
  const app = new Koa();
  app.use(compressResponses());
  app.use((ctx) => {
    if (type) ctx.type = type;
    ctx.body = body();
  });
  return app.callback();
}

/** GET / with `accept` as Accept-Encoding (none when undefined), the body as sent. */
function get(app: ReturnType<typeof appWith>, accept: string | undefined) {
  return rawGet(app, '/', accept === undefined ? {} : { 'Accept-Encoding': accept });
}

describe('compressed JSON answers', () => {
  const big = jsonOf(4096);

  test('JSON over 1 KB goes as brotli to a client that takes it, with Vary and the JSON type kept', async () => {
    const response = await get(
      appWith(() => big),
      'gzip, deflate, br',
    );
    assert.equal(response.headers['content-encoding'], 'br');
    assert.match(response.headers.vary ?? '', /Accept-Encoding/);
    assert.match(response.headers['content-type'] ?? '', /^application\/json/);
    assert.equal(Number(response.headers['content-length']), response.body.length);
    assert.deepEqual(JSON.parse(brotliDecompressSync(response.body).toString()), big);
  });

  test('as gzip to a client without brotli', async () => {
    const response = await get(
      appWith(() => big),
      'gzip',
    );
    assert.equal(response.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(response.body).toString()), big);
  });

  test('as it is to a client that takes neither, still saying it varies', async () => {
    const response = await get(
      appWith(() => big),
      undefined,
    );
    assert.equal(response.headers['content-encoding'], undefined);
    assert.match(response.headers.vary ?? '', /Accept-Encoding/);
    assert.deepEqual(JSON.parse(response.body.toString()), big);
  });

  test(`answers up to ${COMPRESS_MIN_BYTES} bytes go as they are, without Vary`, async () => {
    const small = jsonOf(900);
    const response = await get(
      appWith(() => small),
      'gzip, br',
    );
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(response.headers.vary, undefined);
    assert.deepEqual(JSON.parse(response.body.toString()), small);
  });

  test('a streamed answer (a CSV export) streams untouched', async () => {
    const lines = Array.from({ length: 500 }, (_, index) => `row ${index},${'y'.repeat(20)}\n`);
    for (const type of ['text/csv', 'application/json']) {
      const response = await get(
        appWith(() => Readable.from(lines), type),
        'gzip, br',
      );
      assert.equal(response.headers['content-encoding'], undefined, type);
      assert.equal(response.headers['transfer-encoding'], 'chunked', `${type}: streamed, not buffered`);
      assert.equal(response.body.toString(), lines.join(''));
    }
  });

  test('an answer without a body (204) or a type goes as it is', async () => {
    const response = await get(
      appWith(() => null),
      'gzip, br',
    );
    assert.equal(response.status, 204);
    assert.equal(response.headers['content-encoding'], undefined);
  });

  test('a JSON type with parameters or a +json suffix is compressed; a type merely containing "json" is not', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/problem+json', 'text/html; charset=utf-8']) {
      const response = await get(
        appWith(() => JSON.stringify(big), type),
        'gzip',
      );
      assert.equal(response.headers['content-encoding'], 'gzip', type);
    }
    const response = await get(
      appWith(() => JSON.stringify(big), 'text/x-jsonish'),
      'gzip',
    );
    assert.equal(response.headers['content-encoding'], undefined);
  });

  test('other types (an image) go as they are', async () => {
    const response = await get(
      appWith(() => Buffer.alloc(4096, 1), 'image/png'),
      'gzip, br',
    );
    assert.equal(response.headers['content-encoding'], undefined);
  });
});
