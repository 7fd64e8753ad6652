import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseEncoding } from './encoding';

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
