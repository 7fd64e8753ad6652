import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CASE_EDITS } from '../../shared/moderation-cases';
import { readEdits, withEdit } from './case-history';

const edit = (n: number) => ({ at: new Date(n).toISOString(), byId: '1', byName: 'Mod', field: 'reason' as const, from: `r${n}`, to: `r${n + 1}` });

test('a case keeps its latest edits, oldest first, and reads past anything unreadable', () => {
  let history: unknown = null;
  for (let n = 0; n < MAX_CASE_EDITS + 3; n++) history = withEdit(history, edit(n));
  const kept = readEdits(history);
  assert.equal(kept.length, MAX_CASE_EDITS);
  assert.equal(kept[0]?.from, 'r3');
  assert.equal(kept.at(-1)?.to, `r${MAX_CASE_EDITS + 3}`);
  assert.deepEqual(readEdits([{ field: 'colour' }, edit(1), 'x']), [edit(1)]);
  assert.deepEqual(readEdits('not a list'), []);
});
