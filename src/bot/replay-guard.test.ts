import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReplayGuard } from './replay-guard';

test('a key counts the first time only, among the last `capacity` keys', () => {
  const guard = new ReplayGuard(3);
  assert.deepEqual(
    ['a', 'b', 'a', 'c', 'b'].map((key) => guard.first(key)),
    [true, true, false, true, false],
  );
  assert.equal(guard.first('d'), true); // evicts 'a'
  assert.equal(guard.first('a'), true);
  assert.equal(guard.first('c'), false);
});
