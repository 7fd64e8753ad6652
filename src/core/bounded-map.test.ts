import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setBounded } from './bounded-map';

test('setBounded keeps at most max entries, dropping the oldest, and a key set again becomes the newest', () => {
  const map = new Map<string, number>();
  for (const [index, key] of ['a', 'b', 'c'].entries()) setBounded(map, key, index, 3);
  assert.deepEqual([...map.keys()], ['a', 'b', 'c']);
  setBounded(map, 'a', 10, 3);
  assert.deepEqual(
    [...map],
    [
      ['b', 1],
      ['c', 2],
      ['a', 10],
    ],
  );
  setBounded(map, 'd', 3, 3);
  assert.deepEqual([...map.keys()], ['c', 'a', 'd']);
});
