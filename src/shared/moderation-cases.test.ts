import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseDurationLabel, EditCaseInput, ladderOutlook } from './moderation-cases';

test('the ladder’s next step is the one at active + 1 warnings, said in words', () => {
  const ladder = [
    { warnings: 2, action: 'timeout' as const, duration: '1h' as const },
    { warnings: 4, action: 'ban' as const, duration: null },
  ];
  assert.equal(ladderOutlook([], 3).text, 'No warning ladder is set up: warnings do not lead to other actions.');
  assert.equal(ladderOutlook(ladder, 1).text, 'Next warning: 1 hour timeout');
  assert.equal(ladderOutlook(ladder, 0).text, 'Next warning: no step. At 2 active warnings: 1 hour timeout');
  assert.equal(ladderOutlook(ladder, 3).text, 'Next warning: permanent ban');
  assert.equal(ladderOutlook(ladder, 4).text, 'Next warning: no further step on the ladder.');
  assert.deepEqual(ladderOutlook(ladder, 1).next, ladder[0]);
});

test('an edit changes the reason, the duration or both; nothing at all is refused naming the reason', () => {
  assert.deepEqual(EditCaseInput.parse({ reason: ' Spam ' }), { reason: 'Spam' });
  assert.deepEqual(EditCaseInput.parse({ duration: 'permanent' }), { duration: 'permanent' });
  const empty = EditCaseInput.safeParse({});
  assert.equal(empty.success, false);
  assert.deepEqual(
    empty.error?.issues.map((issue) => issue.path),
    [['reason']],
  );
  assert.equal(EditCaseInput.safeParse({ duration: '2y' }).success, false);
});

test('a case’s duration reads in words, a native timeout’s own length too', () => {
  assert.equal(caseDurationLabel('1w'), '1 week');
  assert.equal(caseDurationLabel('permanent'), 'permanent');
  assert.equal(caseDurationLabel(null), 'as set in Discord');
});
