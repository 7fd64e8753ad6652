import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRoleMenuCustomId, roleMenuChange, roleMenuCustomId, RoleMenuInput, type RoleMenuMode } from './role-menus';

const A = '100000000000000001';
const B = '100000000000000002';
const C = '100000000000000003';
const OTHER = '100000000000000009';
const menu = (mode: RoleMenuMode, maxRoles: number | null = null) => ({ mode, maxRoles, roleIds: [A, B, C] });
const held = (...ids: string[]) => new Set([OTHER, ...ids]);

describe('role menu mode rules', () => {
  test('normal toggles a button; a select sets the menu roles to the selection', () => {
    assert.deepEqual(roleMenuChange(menu('normal'), held(), [A], false), { add: [A], remove: [], limited: false });
    assert.deepEqual(roleMenuChange(menu('normal'), held(A), [A], false), { add: [], remove: [A], limited: false });
    assert.deepEqual(roleMenuChange(menu('normal'), held(A, B), [B, C], true), { add: [C], remove: [A], limited: false });
  });
  test("unique: picking one takes the menu's others, never roles outside the menu", () => {
    assert.deepEqual(roleMenuChange(menu('unique'), held(A), [B], false), { add: [B], remove: [A], limited: false });
    assert.deepEqual(roleMenuChange(menu('unique'), held(A), [A], false), { add: [], remove: [A], limited: false });
    assert.deepEqual(roleMenuChange(menu('unique'), held(A), [], true), { add: [], remove: [A], limited: false });
  });
  test('verify only adds; drop only removes', () => {
    assert.deepEqual(roleMenuChange(menu('verify'), held(A), [A], false), { add: [], remove: [], limited: false });
    assert.deepEqual(roleMenuChange(menu('verify'), held(A), [B], true), { add: [B], remove: [], limited: false });
    assert.deepEqual(roleMenuChange(menu('drop'), held(A), [A], false), { add: [], remove: [A], limited: false });
    assert.deepEqual(roleMenuChange(menu('drop'), held(), [B], false), { add: [], remove: [], limited: false });
  });
  test('reversed: a button toggles; a select names the roles to go without, and the others come back', () => {
    assert.deepEqual(roleMenuChange(menu('reversed'), held(A, B, C), [A], false), { add: [], remove: [A], limited: false });
    assert.deepEqual(roleMenuChange(menu('reversed'), held(B, C), [A], false), { add: [A], remove: [], limited: false });
    assert.deepEqual(roleMenuChange(menu('reversed'), held(B, C), [B], true), { add: [A], remove: [B], limited: false });
  });
  test('binding: the first pick is given (within the cap); after it the menu changes nothing', () => {
    assert.deepEqual(roleMenuChange(menu('binding'), held(), [A], false), { add: [A], remove: [], limited: false });
    assert.deepEqual(roleMenuChange(menu('binding', 1), held(), [A, B], true), { add: [A], remove: [], limited: true });
    assert.deepEqual(roleMenuChange(menu('binding'), held(A), [A], false), { add: [], remove: [], limited: false, bound: true });
    assert.deepEqual(roleMenuChange(menu('binding'), held(A), [B], true), { add: [], remove: [], limited: false, bound: true });
  });
  test('maxRoles caps what the member ends with from this menu', () => {
    assert.deepEqual(roleMenuChange(menu('normal', 1), held(A), [B], false), { add: [], remove: [], limited: true });
    assert.deepEqual(roleMenuChange(menu('normal', 2), held(A), [B], false), { add: [B], remove: [], limited: false });
    assert.deepEqual(roleMenuChange(menu('normal', 2), held(), [A, B, C], true), { add: [A, B], remove: [], limited: true });
    assert.deepEqual(roleMenuChange(menu('normal', 1), held(A), [B], true), { add: [B], remove: [A], limited: false }, 'a select swap stays within the cap');
  });
  test('roles outside the menu are ignored', () => {
    assert.deepEqual(roleMenuChange(menu('normal'), held(), [OTHER], true), { add: [], remove: [], limited: false });
  });
  test('custom ids round-trip', () => {
    assert.deepEqual(parseRoleMenuCustomId(roleMenuCustomId(7, A)), { menuId: 7, roleId: A });
    assert.deepEqual(parseRoleMenuCustomId(roleMenuCustomId(7)), { menuId: 7, roleId: null });
    assert.equal(parseRoleMenuCustomId('verify'), null);
  });
  test('the schema wants 1 to 25 options with distinct roles and labels of at most 80 characters', () => {
    const base = { channelId: A, title: 'Games' };
    assert.equal(RoleMenuInput.safeParse({ ...base, options: [] }).success, false);
    assert.equal(
      RoleMenuInput.safeParse({
        ...base,
        options: [
          { roleId: A, label: 'x' },
          { roleId: A, label: 'y' },
        ],
      }).success,
      false,
    );
    assert.equal(RoleMenuInput.safeParse({ ...base, options: [{ roleId: A, label: 'x'.repeat(81) }] }).success, false);
    const many = Array.from({ length: 26 }, (_, index) => ({ roleId: `1000000000000001${String(index).padStart(2, '0')}`, label: `R${index}` }));
    assert.equal(RoleMenuInput.safeParse({ ...base, options: many }).success, false);
    assert.equal(RoleMenuInput.safeParse({ ...base, options: many.slice(0, 25) }).success, true);
  });
});
