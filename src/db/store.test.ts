import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { storeBackends } from '../../test/helpers/store';
import { MIGRATIONS } from './migrations';
import { openStore } from './store';

for (const backend of storeBackends()) {
  describe(`store on ${backend.name}`, () => {
    test('migrations run up on an empty store, and a second run applies nothing', async () => {
      const database = await backend.createDatabase();
      try {
        const first = await openStore(database.url);
        assert.deepEqual(await first.migrate(), MIGRATIONS.map((m) => m.name));
        assert.deepEqual(await first.migrate(), []);
        await first.close();
        if (backend.name === 'sqlite') return; // an in-memory database does not outlive its connection
        const again = await openStore(database.url);
        assert.deepEqual(await again.migrate(), []);
        await again.close();
      } finally {
        await database.drop();
      }
    });

    test('the models read and write what the migrations created, with defaults and unique keys', async () => {
      const database = await backend.createDatabase();
      const store = await openStore(database.url);
      try {
        await store.migrate();
        const { ServerSettings, UserLevel, Transaction } = store.models;
        const settings = await ServerSettings.create({ serverId: '111111111111111111', welcomeChannelId: '201', rulesChannelId: '202', rulesMessage: null, verificationRoleId: '203' });
        assert.equal(settings.currencyName, 'coins');
        assert.equal(settings.welcomeMessage, 'Welcome {user} to our server! 🎉');
        const reread = await ServerSettings.findOne({ where: { serverId: '111111111111111111' } });
        assert.equal(reread?.voiceMultiplier, 0.5);
        assert.equal(reread?.levelingEnabled, true);
        // Each attribute maps to its own column (a shared definition object once made them alias).
        assert.deepEqual([reread?.welcomeChannelId, reread?.rulesChannelId, reread?.verificationRoleId], ['201', '202', '203']);

        await UserLevel.create({ serverId: '1', userId: '2', totalXp: 50 });
        await assert.rejects(UserLevel.create({ serverId: '1', userId: '2' }), /unique|Validation/i);
        await UserLevel.create({ serverId: '1', userId: '3', totalXp: 500 });
        const top = await UserLevel.findAll({ where: { serverId: '1' }, order: [['totalXp', 'DESC']] });
        assert.deepEqual(top.map((row) => row.userId), ['3', '2']);

        const row = await Transaction.create({ serverId: '1', userId: '2', type: 'earn', amount: -5, itemId: null, itemName: null, description: null });
        assert.equal(row.amount, -5);
        assert.ok(await store.ping());
      } finally {
        await store.close();
        await database.drop();
      }
    });
  });
}

test('a SQLite file store opens in WAL mode and survives a reopen', async () => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = await mkdtemp(path.join(tmpdir(), 'store-'));
  try {
    const url = `sqlite:${path.join(dir, 'nested', 'bot.sqlite')}`;
    const store = await openStore(url);
    await store.migrate();
    const [rows] = await store.sequelize.query('PRAGMA journal_mode');
    assert.deepEqual(rows, [{ journal_mode: 'wal' }]);
    await store.close();
    const reopened = await openStore(url);
    assert.deepEqual(await reopened.migrate(), []);
    await reopened.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
