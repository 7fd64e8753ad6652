// The ledger's invariant, checked after every scenario: each balance is the sum of its rows.
import assert from 'node:assert/strict';
import { QueryTypes } from 'sequelize';
import type { Store } from '../../src/db/store';

/** Asserts every wallet's balance equals the sum of its ledger rows, and no balance is negative. */
export async function assertLedgerWhole(store: Store, guildId?: string): Promise<void> {
  const rows = await store.sequelize.query<{ guildId: string; userId: string; balance: number; sum: number | null }>(
    `SELECT w."guildId", w."userId", w."balance",
       (SELECT SUM(t."amount") FROM transactions t WHERE t."guildId" = w."guildId" AND t."userId" = w."userId") AS "sum"
     FROM user_currency w ${guildId ? 'WHERE w."guildId" = ?' : ''}`,
    { type: QueryTypes.SELECT, replacements: guildId ? [guildId] : [] },
  );
  for (const row of rows) {
    assert.equal(Number(row.balance), Number(row.sum ?? 0), `the balance of ${row.userId} equals the sum of their ledger rows`);
    assert.ok(Number(row.balance) >= 0, `the balance of ${row.userId} is not negative`);
  }
  const orphans = await store.sequelize.query<{ count: number }>(
    `SELECT COUNT(*) AS "count" FROM transactions t WHERE t."amount" <> 0 AND NOT EXISTS (SELECT 1 FROM user_currency w WHERE w."guildId" = ` +
      `t."guildId" AND w."userId" = t."userId") ${guildId ? 'AND t."guildId" = ?' : ''}`,
    { type: QueryTypes.SELECT, replacements: guildId ? [guildId] : [] },
  );
  assert.equal(Number(orphans[0]?.count ?? 0), 0, 'every ledger row that moved coins belongs to a wallet');
}
