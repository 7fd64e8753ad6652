import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QueryTypes, type Transaction } from 'sequelize';
import { storeBackends } from '../../test/helpers/store';
import { sequelizeSession } from './session';
import { instantParam, jsonOf, jsonRows, storedInstant, together } from './sql';
import { openStore } from './store';

const FIELDS = { userId: 'text', name: 'text', amount: 'integer' } as const;
const HOSTILE = ["O'Brien", "'); DROP TABLE user_levels; --", "back\\slash \\' quote", '🙂 unicode ünï', '$1 ? :name', 'line\nbreak', ''];

for (const backend of storeBackends()) {
  describe(`SQL of the write-behind writes on ${backend.name}`, () => {
    test('JSON rows go in as one parameter, every value as given (hostile text, unicode, nulls), stamped with a stored instant, with RETURNING', async () => {
      const database = await backend.createDatabase();
      const store = await openStore(database.url);
      try {
        await store.migrate();
        const at = new Date('2026-11-22T05:06:07.123Z');
        assert.equal(`'${storedInstant(at)}'`, store.sequelize.escape(at), 'an instant is stored as Sequelize stores it');
        const rows = Array.from({ length: 20_000 }, (_, i) => ({
          userId: String(10_000 + i),
          name: i % 50 === 0 ? null : (HOSTILE[i % HOSTILE.length] as string),
          amount: i - 1000,
        }));
        const returned = await store.sequelize.transaction((transaction) => {
          const session = sequelizeSession(store.sequelize, transaction);
          const { from, field } = jsonRows(session.dialect, '$1', FIELDS);
          return session.query<{ userId: string; balance: number | string }>(
            `INSERT INTO user_currency ("guildId", "userId", "username", "balance", "totalEarned", "updatedAt")
             SELECT '1', ${field.userId}, ${field.name}, ${field.amount}, 0, ${instantParam(session.dialect, '$2')} FROM ${from} WHERE true
             RETURNING "userId", "balance"`,
            [jsonOf(rows, FIELDS), storedInstant(at)],
          );
        });
        assert.equal(returned.length, rows.length);
        assert.deepEqual(new Map(returned.map((r) => [r.userId, Number(r.balance)])), new Map(rows.map((r) => [r.userId, r.amount])));
        const stored = await store.sequelize.query<{ userId: string; username: string | null; updatedAt: string | Date }>(
          'SELECT "userId", "username", "updatedAt" FROM user_currency ORDER BY "userId"',
          { type: QueryTypes.SELECT },
        );
        assert.deepEqual(
          stored.map((r) => r.username),
          rows.map((r) => r.name),
        );
        assert.ok(stored.every((r) => new Date(r.updatedAt).getTime() === at.getTime()));
        const [model] = await store.models.UserCurrency.findAll({ where: { userId: '10000' } });
        assert.equal(model?.updatedAt.getTime(), at.getTime(), 'Sequelize reads the instant back as it wrote it');
        assert.equal(await store.models.UserLevel.count(), 0, 'the hostile name dropped nothing');
      } finally {
        await store.close();
        await database.drop();
      }
    });

    test("together runs a transaction's independent statements and answers their results in order", async () => {
      const database = await backend.createDatabase();
      const store = await openStore(database.url);
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      try {
        await store.migrate();
        const select = (n: number, transaction: Transaction) =>
          store.sequelize.query<{ n: number }>(`SELECT ${n} AS n`, { type: QueryTypes.SELECT, transaction });
        const [a, b, c] = await store.sequelize.transaction((transaction) =>
          together(sequelizeSession(store.sequelize, transaction), [
            () => select(1, transaction),
            () => select(2, transaction),
            () => select(3, transaction),
          ] as const),
        );
        assert.deepEqual(
          [a, b, c].map((rows) => Number(rows[0]?.n)),
          [1, 2, 3],
        );
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(
          warnings.filter((message) => /already executing a query/.test(message)),
          [],
          'node-postgres is never sent a query while busy',
        );
      } finally {
        process.off('warning', onWarning);
        await store.close();
        await database.drop();
      }
    });
  });
}

describe('together on SQLite', () => {
  test('a failure is thrown only once every statement sent with it has settled, so the ROLLBACK after it goes out last', async () => {
    const settled: string[] = [];
    let finishSlow: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => {
      finishSlow = resolve;
    }).then(() => settled.push('slow'));
    let thrown = false;
    const running = together({ dialect: 'sqlite' }, [() => Promise.reject(new Error('no such table: transactions')), () => slow] as const).catch(
      (error: unknown) => {
        thrown = true;
        settled.push(`thrown: ${(error as Error).message}`);
      },
    );
    // The failure has been seen by now; the slow statement has not finished, so nothing is thrown yet.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(thrown, false, 'not thrown while a statement is still under way');
    finishSlow();
    await running;
    assert.deepEqual(settled, ['slow', 'thrown: no such table: transactions']);
  });
});
