import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenize } from './text';

test('text command words split on spaces, and double quotes keep a phrase together', () => {
  assert.deepEqual(
    tokenize('  <@123456789012345678>  50 "thanks for the help" extra').map((t) => t.text),
    ['<@123456789012345678>', '50', 'thanks for the help', 'extra'],
  );
  assert.deepEqual(tokenize(''), []);
  assert.equal(tokenize('a  bb')[1]?.start, 3);
});
