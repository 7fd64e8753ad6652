// The account-age gate: who may verify now, and how many days are left for who may not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountAgeGate, youngAccountText } from './verification';

const DAY = 86_400_000;
const created = Date.UTC(2026, 0, 1);

test('no gate (0 days) lets every account verify, even one made a second ago', () => {
  assert.deepEqual(accountAgeGate(created, created + 1000, 0), { allowed: true });
});

test('an account younger than the gate waits; the days left are rounded up', () => {
  assert.deepEqual(accountAgeGate(created, created, 7), { allowed: false, daysLeft: 7 });
  assert.deepEqual(accountAgeGate(created, created + 2 * DAY, 7), { allowed: false, daysLeft: 5 });
  assert.deepEqual(accountAgeGate(created, created + 7 * DAY - 1, 7), { allowed: false, daysLeft: 1 });
});

test('an account exactly as old as the gate, or older, verifies', () => {
  assert.deepEqual(accountAgeGate(created, created + 7 * DAY, 7), { allowed: true });
  assert.deepEqual(accountAgeGate(created, created + 400 * DAY, 7), { allowed: true });
});

test('the member reads the days left in words', () => {
  assert.match(youngAccountText(1), /Come back in 1 day and/);
  assert.match(youngAccountText(5), /Come back in 5 days and/);
});
