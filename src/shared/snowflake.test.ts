// The one rule of a Discord id as text, used by the zod schemas and by code reading raw text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSnowflake, Snowflake, SNOWFLAKE_DIGITS, SNOWFLAKE_MESSAGE } from './auth';

test('a Discord id is 15 to 21 digits, nothing else; the schema and isSnowflake agree', () => {
  const cases: [string, boolean][] = [
    ['1'.repeat(SNOWFLAKE_DIGITS.min - 1), false],
    ['1'.repeat(SNOWFLAKE_DIGITS.min), true],
    ['1'.repeat(SNOWFLAKE_DIGITS.max), true],
    ['1'.repeat(SNOWFLAKE_DIGITS.max + 1), false],
    ['12345678901234a', false],
    [' 123456789012345', false],
    ['', false],
  ];
  for (const [text, valid] of cases) {
    assert.equal(isSnowflake(text), valid, text);
    assert.equal(Snowflake.safeParse(text).success, valid, text);
  }
  assert.equal(Snowflake.safeParse('123').error?.issues[0]?.message, SNOWFLAKE_MESSAGE);
  assert.equal(SNOWFLAKE_MESSAGE, 'must be a Discord id (15 to 21 digits)');
});
