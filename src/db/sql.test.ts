import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QueryTypes, type Transaction } from 'sequelize';
import { storeBackends } from '../../test/helpers/store';
import { insertRows, together, VALUES_PER_STATEMENT } from './sql';
import { openStore } from './store';

const HOSTILE = ["O'Brien", "'); DROP TABLE user_levels; --", 'back\\slash \\\' quote', '🙂 unicode ünï', '$1 ? :name', 'line\nbreak', ''];

for (const backend of storeBackends()) {
  describe(`insertRows on ${backend.name}`, () => {
    test('writes every value as given, hostile text, instants and nulls included, across statements, and returns RETURNING rows', async () => {
      const database = await backend.createDatabase();
      const store = await openStore(database.url);
      try {
        await store.migrate();
        const at = new Date('2026-11-22T05:06:07.123Z');
        // Rows of 6 values for two and a half statements.
        const rows = Array.from({ length: Math.ceil((2.5 * VALUES_PER_STATEMENT) / 6) }, (_, i) => ({ userId: String(10_000 + i), name: i % 50 === 0 ? null : (HOSTILE[i % HOSTILE.length] as string), amount: i - 1000 }));
        const returned = await store.sequelize.transaction((transaction) =>
          insertRows<(typeof rows)[number], { userId: string; balance: number }>(
            store.sequelize,
            {
              into: 'user_currency ("guildId", "userId", "username", "balance", "totalEarned", "updatedAt")',
              rows,
              values: (r) => ['1', r.userId, r.name, r.amount, r.amount > 0 ? r.amount : 0, at],
              tail: 'RETURNING "userId", "balance"',
            },
            transaction,
          ),
        );
        assert.equal(returned.length, rows.length);
        assert.deepEqual(new Map(returned.map((r) => [r.userId, Number(r.balance)])), new Map(rows.map((r) => [r.userId, r.amount])));
        const stored = await store.sequelize.query<{ userId: string; username: string | null; updatedAt: string | Date }>(
          'SELECT "userId", "username", "updatedAt" FROM user_currency ORDER BY "userId"',
          { type: QueryTypes.SELECT },
        );
        assert.deepEqual(stored.map((r) => r.username), rows.map((r) => r.name));
        assert.ok(stored.every((r) => new Date(r.updatedAt).getTime() === at.getTime()));
        assert.equal((await store.models.UserLevel.count()), 0, 'the hostile name dropped nothing');
      } finally {
        await store.close();
        await database.drop();
      }
    });

    test('together runs a transaction\'s independent statements and answers their results in order', async () => {
      const database = await backend.createDatabase();
      const store = await openStore(database.url);
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.message);
      process.on('warning', onWarning);
      try {
        await store.migrate();
        const select = (n: number, transaction: Transaction) => store.sequelize.query<{ n: number }>(`SELECT ${n} AS n`, { type: QueryTypes.SELECT, transaction });
        const [a, b, c] = await store.sequelize.transaction((transaction) =>
          together(store.sequelize, [() => select(1, transaction), () => select(2, transaction), () => select(3, transaction)] as const),
        );
        assert.deepEqual([a, b, c].map((rows) => Number(rows[0]?.n)), [1, 2, 3]);
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(warnings.filter((message) => /already executing a query/.test(message)), [], 'node-postgres is never sent a query while busy');
      } finally {
        process.off('warning', onWarning);
        await store.close();
        await database.drop();
      }
    });
  });
}
