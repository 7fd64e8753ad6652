// Money under concurrency, on a SQLite file (separate connections, as a busy process has) and on
// PostgreSQL when TEST_DATABASE_URL is set: 100 concurrent buys of an item a member can afford once
// make exactly one purchase; 100 concurrent gives between two members conserve the total; the
// ledger stays whole.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buyItem, giveCoins } from '../../src/features/economy/member';
import { restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';
import { assertLedgerWhole } from './ledger';

for (const backend of storeBackends()) {
  describe(`money under concurrency on ${backend.name}`, () => {
    test('100 concurrent buys of an item a member can afford once: exactly one purchase, the balance exact', async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url, memberCount: 20 } : { memberCount: 20 });
      try {
        const product = await r.start();
        const { services, store } = product;
        const { guildId, plainMemberId } = r.sandbox.world.demo;
        const item = await store.models.ShopItem.create({
          guildId,
          name: 'Trophy',
          description: null,
          price: 100,
          type: 'cosmetic',
          roleId: null,
          icon: null,
          stock: null,
          perMemberLimit: null,
        });
        await store.sequelize.transaction(async (transaction) => {
          const { credit } = await import('../../src/features/economy/ledger');
          await credit({ store, transaction, now: new Date() }, { guildId, userId: plainMemberId, type: 'admin', amount: 150 }, 'pat');
        });
        const results = await Promise.allSettled(
          Array.from({ length: 100 }, () => buyItem(services, guildId, { userId: plainMemberId, username: 'pat' }, item.id)),
        );
        const bought = results.filter((result) => result.status === 'fulfilled');
        const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
        assert.equal(bought.length, 1, 'exactly one purchase');
        for (const refusal of refused) assert.match(String(refusal.reason?.message), /Trophy costs 100 coins; you have 50\./);
        assert.equal((await store.models.UserCurrency.findOne({ where: { guildId, userId: plainMemberId } }))?.balance, 50);
        assert.equal((await store.models.UserInventory.findOne({ where: { guildId, userId: plainMemberId, itemId: item.id } }))?.quantity, 1);
        assert.equal((await item.reload()).purchaseCount, 1);
        await assertLedgerWhole(store, guildId);
      } finally {
        await r.close();
        await database?.drop();
      }
    });

    test('100 concurrent gives both ways between two members: the total is conserved and nobody goes below 0', async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url, memberCount: 20 } : { memberCount: 20 });
      try {
        const product = await r.start();
        const { services, store } = product;
        const { guildId, plainMemberId, adminUserId } = r.sandbox.world.demo;
        const { credit } = await import('../../src/features/economy/ledger');
        await store.sequelize.transaction(async (transaction) => {
          await credit({ store, transaction, now: new Date() }, { guildId, userId: plainMemberId, type: 'admin', amount: 100 }, 'pat');
          await credit({ store, transaction, now: new Date() }, { guildId, userId: adminUserId, type: 'admin', amount: 100 }, 'admin');
        });
        const pat = { userId: plainMemberId, username: 'pat' };
        const boss = { userId: adminUserId, username: 'admin' };
        const results = await Promise.allSettled(
          Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? giveCoins(services, guildId, pat, boss, 7) : giveCoins(services, guildId, boss, pat, 3))),
        );
        const [a, b] = await Promise.all([plainMemberId, adminUserId].map((userId) => store.models.UserCurrency.findOne({ where: { guildId, userId } })));
        assert.equal((a?.balance ?? 0) + (b?.balance ?? 0), 200, 'the total is conserved');
        const done = results.filter((result) => result.status === 'fulfilled').length;
        assert.ok(done > 0, 'some gives went through');
        await assertLedgerWhole(store, guildId);
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  });
}
