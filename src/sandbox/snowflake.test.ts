import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SnowflakeFactory, snowflakeTime } from './snowflake';

test('ids stay unique and increasing when many are made in one millisecond or the clock goes back', () => {
  let now = Date.UTC(2026, 0, 1);
  const ids = new SnowflakeFactory(0, () => now);
  const made = Array.from({ length: 10_000 }, () => ids.next());
  assert.equal(new Set(made).size, made.length);
  for (let i = 1; i < made.length; i += 1) assert.ok(BigInt(made[i] ?? 0) > BigInt(made[i - 1] ?? 0));
  now -= 60_000;
  assert.ok(BigInt(ids.next()) > BigInt(made.at(-1) ?? 0));
  now += 3_600_000;
  assert.equal(snowflakeTime(ids.next()), now, 'a fresh millisecond starts from the clock');
});
