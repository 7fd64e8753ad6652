import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseEncoding, requestCoding } from './encoding';

test('brotli when the request takes it, else gzip, else identity', () => {
  assert.equal(chooseEncoding('gzip, deflate, br, zstd', ['br', 'gzip']), 'br', "a browser's header: brotli, though gzip comes first");
  assert.equal(chooseEncoding('gzip, deflate', ['br', 'gzip']), 'gzip');
  assert.equal(chooseEncoding('deflate', ['br', 'gzip']), 'identity');
  assert.equal(chooseEncoding(undefined, ['br', 'gzip']), 'identity', 'no Accept-Encoding: identity');
  assert.equal(chooseEncoding('', ['br', 'gzip']), 'identity');
  assert.equal(chooseEncoding('br, gzip', []), 'identity', 'nothing offered (an asset without copies)');
  assert.equal(chooseEncoding('br', ['gzip']), 'identity', 'only what is offered');
});

test('weights (q) decide, case and spaces aside; q=0 refuses a coding', () => {
  assert.equal(chooseEncoding('br;q=0.5, gzip', ['br', 'gzip']), 'gzip');
  assert.equal(chooseEncoding('BR ; q=0.9 , GZIP;q=0.8', ['br', 'gzip']), 'br');
  assert.equal(chooseEncoding('br;q=0, gzip;q=0', ['br', 'gzip']), 'identity');
  assert.equal(chooseEncoding('br;q=0.5, identity', ['br', 'gzip']), 'identity', 'identity weighed higher');
  assert.equal(chooseEncoding('*', ['br', 'gzip']), 'br', 'the wildcard takes anything');
  assert.equal(chooseEncoding('*;q=0.5, br;q=0', ['br', 'gzip']), 'gzip', 'a named coding overrides the wildcard');
});

test("a request body's Content-Encoding: case, spaces, x-gzip and identity in a list aside, one coding is read", () => {
  for (const [header, coding] of [
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['IDENTITY', 'identity'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['  Gzip\t', 'gzip'],
    ['x-gzip', 'gzip'],
    ['X-GZIP', 'gzip'],
    ['deflate', 'deflate'],
    ['Deflate', 'deflate'],
    ['br', 'br'],
    ['BR', 'br'],
    ['gzip, identity', 'gzip'],
    ['identity,gzip', 'gzip'],
    [' , br ,', 'br'],
    ['identity, identity', 'identity'],
  ] as const) {
    assert.deepEqual(requestCoding(header), { kind: 'one', coding }, JSON.stringify(header));
  }
});

test('a coding we do not read, or more than one applied in turn, is named', () => {
  assert.deepEqual(requestCoding('compress'), { kind: 'unsupported', coding: 'compress' });
  assert.deepEqual(requestCoding('ZSTD'), { kind: 'unsupported', coding: 'zstd' });
  assert.deepEqual(requestCoding('gzip;q=1'), { kind: 'unsupported', coding: 'gzip;q=1' });
  assert.deepEqual(requestCoding('gzip, br'), { kind: 'stacked', codings: ['gzip', 'br'] });
  assert.deepEqual(requestCoding('GZIP, identity, gzip'), { kind: 'stacked', codings: ['gzip', 'gzip'] });
});
