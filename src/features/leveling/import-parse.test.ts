// Reading imports of levels: each bad row refused by its line and field, the whole file with it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidInput } from '../../core/errors';
import { elementLines, parseLevelCsv, parseMee6 } from './import-parse';

const A = '111111111111111111';
const B = '222222222222222222';

/** The refusal's message, or fails when the file is taken. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InvalidInput);
    assert.equal(error.fields.content, error.message);
    return error.message;
  }
  assert.fail('the file was taken');
}

describe('CSV of user id and XP', () => {
  test('a header, blank lines, quotes, semicolons and tabs are taken; lines are counted from 1', () => {
    assert.deepEqual(
      parseLevelCsv(`user_id,xp\r\n\n"${A}", 1500\n${B};20\n`).map((row) => [row.line, row.userId, row.xp]),
      [
        [3, A, 1500],
        [4, B, 20],
      ],
    );
    assert.deepEqual(
      parseLevelCsv(`${A}\t7\tignored`).map((row) => row.xp),
      [7],
    );
  });

  test('every bad row is named by its line and field, and nothing is taken', () => {
    const message = refusal(() => parseLevelCsv(`id,xp\n${A},10\nabc,5\n${B},-3\n${B},1.5\n${A},4\n${B}\n`));
    assert.match(message, /^The file has 5 problems, so nothing was imported\./);
    assert.match(message, /Line 3: the user id “abc” is not a Discord id\./);
    assert.match(message, /Line 4: the XP “-3” is not a whole number from 0 to 1,000,000,000\./);
    assert.match(message, /Line 5: the XP “1\.5” is not a whole number/);
    assert.match(message, /Line 7: expected a user id and an XP separated by a comma\./);
    assert.match(message, new RegExp(`Line 6: user id ${A} is listed again \\(first on line 2\\)\\.`));
  });

  test('a file with no members, or with more than 20 problems, says so', () => {
    assert.match(
      refusal(() => parseLevelCsv('user_id,xp\n')),
      /It lists no members/,
    );
    const many = Array.from({ length: 25 }, (_, i) => `x${i},1`).join('\n');
    assert.match(
      refusal(() => parseLevelCsv(many)),
      /25 problems.*…and 5 more\.$/,
    );
  });
});

describe("MEE6's leaderboard export", () => {
  const player = (id: unknown, xp: unknown, extra = '') => `    {\n      "id": ${JSON.stringify(id)},\n      "xp": ${JSON.stringify(xp)}${extra}\n    }`;

  test('its players are read with their names and message counts; the bare array of players too', () => {
    const first = player(A, 1234, ',\n      "username": "pat",\n      "message_count": 77,\n      "level": 5');
    const content = `{\n  "page": 0,\n  "players": [\n${first},\n${player(B, 0)}\n  ]\n}`;
    assert.deepEqual(parseMee6(content), [
      { line: 4, userId: A, xp: 1234, username: 'pat', messages: 77 },
      { line: 11, userId: B, xp: 0, username: null, messages: null },
    ]);
    assert.deepEqual(
      parseMee6(JSON.stringify([{ id: A, xp: 5 }])).map((row) => row.xp),
      [5],
    );
  });

  test('a bad player is named by the line its entry begins on and its field', () => {
    const content = `{"players": [\n${player(A, 10)},\n${player('nope', 'lots')},\n${player(A, 3)}\n]}`;
    const message = refusal(() => parseMee6(content));
    assert.match(message, /Line 6 \(player 2\): the id is not a Discord id; the xp is not a whole number/);
    assert.match(message, new RegExp(`Line 10: user id ${A} is listed again \\(first on line 2\\)`));
  });

  test('not JSON, or JSON without players, is refused in words', () => {
    assert.match(
      refusal(() => parseMee6('id,xp')),
      /It is not JSON/,
    );
    assert.match(
      refusal(() => parseMee6('{"guild": {}}')),
      /no `players` list/,
    );
  });

  test('element lines skip brackets and commas inside strings', () => {
    assert.deepEqual(elementLines('{"x": "[,]", "players": [\n{"a": "],{"},\n\n{"b": 1}]}'), [2, 4]);
  });
});
