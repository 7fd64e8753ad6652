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
        assert.deepEqual(
          await first.migrate(),
          MIGRATIONS.map((m) => m.name),
        );
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
        const { GuildSettings, UserLevel, Transaction, Account, Session } = store.models;
        await GuildSettings.create({ guildId: '111111111111111111', data: { values: { xpCooldown: 30 } }, updatedAt: new Date() });
        const reread = await GuildSettings.findByPk('111111111111111111');
        assert.deepEqual(reread?.data, { values: { xpCooldown: 30 } });
        assert.equal(reread?.version, 0);
        const account = await Account.create({
          userId: '222222222222222222',
          username: 'pat',
          discriminator: '0',
          avatar: null,
          accessToken: null,
          refreshToken: null,
          tokenExpiresAt: null,
        });
        await Session.create({ id: 'a'.repeat(64), data: {}, accountId: account.id, expiresAt: new Date(Date.now() + 60_000) });
        assert.equal(await Session.count({ where: { accountId: account.id } }), 1);

        await UserLevel.create({ guildId: '1', userId: '2', totalXp: 50 });
        await assert.rejects(UserLevel.create({ guildId: '1', userId: '2' }), /unique|Validation/i);
        await UserLevel.create({ guildId: '1', userId: '3', totalXp: 500 });
        const top = await UserLevel.findAll({ where: { guildId: '1' }, order: [['totalXp', 'DESC']] });
        assert.deepEqual(
          top.map((row) => row.userId),
          ['3', '2'],
        );

        const row = await Transaction.create({
          guildId: '1',
          userId: '2',
          type: 'earn',
          amount: -5,
          itemId: null,
          itemName: null,
          description: null,
          actorId: null,
          counterpartyId: null,
          createdAt: new Date(),
        });
        assert.equal(row.amount, -5);
        assert.ok(await store.ping());
      } finally {
        await store.close();
        await database.drop();
      }
    });

    test('sizeBytes reports the database size, and it grows with rows', async () => {
      const database = await backend.createDatabase();
      const store = await openStore(database.url);
      try {
        await store.migrate();
        const empty = await store.sizeBytes();
        assert.ok(empty > 0);
        const { UserLevel } = store.models;
        await UserLevel.bulkCreate(Array.from({ length: 2000 }, (_, i) => ({ guildId: '1', userId: String(i), username: 'x'.repeat(100), totalXp: i })));
        // PostgreSQL's size counts whole files, which grow in steps; SQLite's grows by pages.
        assert.ok((await store.sizeBytes()) > empty);
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
    // The file and its write-ahead log, as the disk holds them.
    const { statSync, existsSync } = await import('node:fs');
    const file = path.join(dir, 'nested', 'bot.sqlite');
    const onDisk = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    assert.equal(await store.sizeBytes(), onDisk);
    await store.close();
    const reopened = await openStore(url);
    assert.deepEqual(await reopened.migrate(), []);
    await reopened.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
