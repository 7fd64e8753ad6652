import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StaleVersion } from './errors';
import { conflictingChanges, plainValue, refuseStaleSave, type EditMeanwhile } from './versions';

const at = new Date(Date.UTC(2026, 10, 26, 12));
const meanwhile: EditMeanwhile[] = [
  { by: 'alex', at, changes: [{ field: 'textMultiplier', from: 1, to: 1.7 }] },
  {
    by: 'sam',
    at,
    changes: [
      { field: 'levelUpBonus', from: 100, to: 120 },
      { field: 'levelingEnabled', from: true, to: false },
    ],
  },
];

test('only changes meanwhile to fields the save changes, to another value than the one stored, conflict', () => {
  const stored = { textMultiplier: 1.7, levelUpBonus: 120, levelingEnabled: false, xpCooldown: 60 };
  assert.deepEqual(conflictingChanges(meanwhile, { xpCooldown: 30 }, stored), [], 'other fields merge');
  assert.deepEqual(conflictingChanges(meanwhile, { textMultiplier: 1.7 }, stored), [], 'the same value is no conflict');
  assert.deepEqual(
    conflictingChanges(meanwhile, { textMultiplier: 2, levelingEnabled: true, xpCooldown: 30 }, stored).map(({ edit, change }) => [edit.by, change.field]),
    [
      ['alex', 'textMultiplier'],
      ['sam', 'levelingEnabled'],
    ],
  );
});

test('the refusal names each change in words, and carries the version to save over', () => {
  const stored = { textMultiplier: 1.7, levelingEnabled: false };
  assert.doesNotThrow(() => refuseStaleSave({ meanwhile, saving: { xpCooldown: 5 }, stored, version: 9 }));
  try {
    refuseStaleSave({ meanwhile, saving: { textMultiplier: 2, levelingEnabled: true }, stored, version: 9 });
    assert.fail('refused');
  } catch (error) {
    assert.ok(error instanceof StaleVersion);
    assert.equal(error.version, 9);
    assert.equal(
      error.message,
      'While you were editing, alex changed Text multiplier from 1 to 1.7; sam changed Leveling enabled from on to off. Reload to see the current ' +
        'values, or save again to keep yours.',
    );
    assert.deepEqual(
      error.changes.map((change) => change.label),
      ['Text multiplier', 'Leveling enabled'],
    );
  }
});

test('values read as words', () => {
  assert.equal(plainValue('x', null), 'nothing');
  assert.equal(plainValue('x', ''), 'nothing');
  assert.equal(plainValue('x', true), 'on');
  assert.equal(plainValue('x', ['a', 'b']), 'a, b');
  assert.equal(plainValue('x', 1.5), '1.5');
});
