// A request body whose Content-Encoding lies (gzip that is not gzip) or names an encoding we do
// not speak is the client's mistake: 400 or 415 on every write route, logged at debug, never 500.
import assert from 'node:assert/strict';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import request from 'supertest';
import type { Product } from '../../src/main';
import { rawBodyMatcher } from '../../src/http/route';
import { captureLogs } from '../helpers/logs';
import { startTestProduct } from '../helpers/product';

describe('request bodies with a Content-Encoding', () => {
  let product: Product;
  const logs = captureLogs('debug');
  before(async () => {
    product = await startTestProduct({}, { logger: logs.logger });
  });
  after(() => product.close());

  /** Every route of the API that takes a body, read from the router so later routes are covered too. */
  function bodyRoutes(): { method: string; path: string }[] {
    return product.api.stack.flatMap((layer) =>
      layer.methods
        .filter((m) => ['POST', 'PUT', 'PATCH'].includes(m))
        .map((method) => ({ method, path: String(layer.path).replace(/:\w+/g, '123456789012345678') })),
    );
  }

  /** Whether a route takes a file as its body (rawBody), which is read as sent: no coding at all. */
  const takesFile = (route: { method: string; path: string }) =>
    rawBodyMatcher(product.features.flatMap((feature) => feature.routes ?? []))(route.method, route.path);

  /** The routes that take JSON. */
  const writeRoutes = () => bodyRoutes().filter((route) => !takesFile(route));

  function send(route: { method: string; path: string }, encoding: string, body: Buffer | string) {
    const method = route.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
    return request(product.url)
      [method](route.path)
      .set('Origin', product.config.publicUrl)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .send(body);
  }

  test('a body that is not what its Content-Encoding says answers 400 on every write route', async () => {
    const routes = writeRoutes();
    assert.ok(routes.length >= 3);
    for (const route of routes) {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const response = await send(route, encoding, '{"code":"x","state":"y"}');
        assert.equal(response.status, 400, `${route.method} ${route.path} with ${encoding}: ${response.status} ${JSON.stringify(response.body)}`);
        assert.equal(response.body.error, 'bad_request');
        assert.match(response.body.message, new RegExp(`not valid ${encoding}`));
      }
    }
  });

  test('an encoding we do not support answers 415 naming it', async () => {
    for (const route of writeRoutes()) {
      const response = await send(route, 'compress', 'whatever');
      assert.equal(response.status, 415, `${route.method} ${route.path}`);
      assert.equal(
        response.body.message,
        'The request body is encoded as compress, which this server does not read; send it as gzip, deflate or br, or not encoded.',
      );
      assert.equal(response.headers['accept-encoding'], 'gzip, deflate, br', 'RFC 9110: a 415 for a coding says which codings are read');
    }
  });

  test('a route that takes a file refuses any coding, before sign-in, saying to send it as it is', async () => {
    const routes = bodyRoutes().filter(takesFile);
    assert.ok(routes.length >= 1);
    for (const route of routes) {
      for (const encoding of ['gzip', 'br', 'compress', 'gzip, br']) {
        const response = await send(route, encoding, 'whatever');
        assert.equal(response.status, 415, `${route.method} ${route.path} with ${encoding}`);
        assert.equal(response.body.message, `The file is sent encoded (Content-Encoding: ${encoding}); send it as it is, not encoded.`);
      }
    }
  });

  test('a real gzip body is read', async () => {
    const response = await fetch(`${product.url}/api/auth/mock-login`, {
      method: 'POST',
      headers: { Origin: product.config.publicUrl, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ username: 'x' })),
    });
    const body = (await response.json()) as { error: string; fields: Record<string, string> };
    assert.equal(response.status, 400);
    assert.equal(body.error, 'validation_error', 'the body was inflated, then validated');
    assert.ok(body.fields.username && body.fields.id);
  });

  /** Posts a gzip (or brotli) body to the demo login under `header`: 400 validation_error means it was inflated and read. */
  async function postEncoded(header: string, body: Buffer<ArrayBuffer>) {
    const response = await fetch(`${product.url}/api/auth/mock-login`, {
      method: 'POST',
      headers: { Origin: product.config.publicUrl, 'Content-Type': 'application/json', 'Content-Encoding': header },
      body,
    });
    return { status: response.status, body: (await response.json()) as { error: string; message: string; fields?: Record<string, string> } };
  }

  test('content codings are case-insensitive and the header a list: GZIP, " gzip ", x-gzip and "gzip, identity" are read', async () => {
    const gzipped = gzipSync(JSON.stringify({ username: 'x' }));
    for (const header of ['GZIP', 'Gzip', ' gzip ', 'x-gzip', 'gzip, identity', 'identity,gzip']) {
      const { status, body } = await postEncoded(header, gzipped);
      assert.equal(status, 400, `${header}: ${JSON.stringify(body)}`);
      assert.equal(body.error, 'validation_error', `${header}: the body was inflated, then validated`);
    }
    const { status, body } = await postEncoded('BR', brotliCompressSync(JSON.stringify({ username: 'x' })));
    assert.equal(body.error, 'validation_error', `BR: ${status}`);
    const plain = await postEncoded('Identity', Buffer.from(JSON.stringify({ username: 'x' })));
    assert.equal(plain.body.error, 'validation_error', 'identity: the body is read as it is');
  });

  test('two codings applied in turn answer 415 saying so, and which codings are read', async () => {
    const response = await fetch(`${product.url}/api/auth/mock-login`, {
      method: 'POST',
      headers: { Origin: product.config.publicUrl, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip, br' },
      body: brotliCompressSync(gzipSync(JSON.stringify({ username: 'x' }))),
    });
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(response.status, 415);
    assert.equal(body.message, 'The request body is encoded more than once (gzip, then br); send it encoded once, as gzip, deflate or br, or not at all.');
    assert.equal(response.headers.get('accept-encoding'), 'gzip, deflate, br');
  });

  test('none of it was logged above debug', () => {
    const loud = logs.entries().filter((entry) => Number(entry.level) > 30);
    assert.deepEqual(loud, []);
    assert.ok(logs.entries().some((entry) => entry.level === 20 && /could not be decoded/.test(String(entry.msg))));
  });
});
