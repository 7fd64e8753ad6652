import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rewardRolesKept } from './rewards';

const rewards = [
  { level: 5, roleId: 'bronze' },
  { level: 10, roleId: 'silver' },
  { level: 20, roleId: 'gold' },
];

test('stacking keeps every reward up to the level; replacing keeps only the highest reached', () => {
  assert.deepEqual([...rewardRolesKept(rewards, 12, true)].sort(), ['bronze', 'silver']);
  assert.deepEqual([...rewardRolesKept(rewards, 12, false)], ['silver']);
  assert.deepEqual([...rewardRolesKept(rewards, 4, true)], []);
  assert.deepEqual([...rewardRolesKept(rewards, 20, false)], ['gold']);
});
