import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore, type Store } from './store';
import { RowCache } from './row-cache';
import type { Session } from './models/session';

describe('RowCache', () => {
  let store: Store;
  let reads = 0;
  before(async () => {
    store = await openStore('sqlite::memory:');
    await store.migrate();
    for (let id = 1; id <= 10; id++) {
      await store.models.Account.create({
        id,
        userId: String(1000 + id),
        username: `user${id}`,
        discriminator: '0',
        avatar: null,
        accessToken: null,
        refreshToken: null,
        tokenExpiresAt: null,
      });
    }
    store.models.Session.addHook('afterFind', () => {
      reads++;
    });
  });
  after(() => store.close());

  const later = () => new Date(Date.now() + 3_600_000);
  async function session(id: string, accountId: number | null = 1): Promise<void> {
    await store.models.Session.create({ id, data: { accountId }, accountId, expiresAt: later() });
  }

  test('a row read twice within the TTL is read from the store once, and an absent row too', async () => {
    const cache = new RowCache(store.models.Session);
    await session('a');
    reads = 0;
    assert.equal((await cache.get('a'))?.id, 'a');
    assert.equal((await cache.get('a'))?.id, 'a');
    assert.equal(await cache.get('missing'), null);
    assert.equal(await cache.get('missing'), null);
    assert.equal(reads, 2);
  });

  test('saving, destroying or bulk-writing a row is seen at once', async () => {
    const cache = new RowCache(store.models.Session);
    await session('b', 7);
    await session('c', 7);
    const row = (await cache.get('b')) as Session;
    await store.models.Session.update({ data: { accountId: 8 } }, { where: { id: 'b' } });
    assert.deepEqual((await cache.get('b'))?.data, { accountId: 8 });
    const fresh = (await store.models.Session.findByPk('b')) as Session;
    await fresh.update({ data: { accountId: 9 } });
    assert.deepEqual((await cache.get('b'))?.data, { accountId: 9 });
    assert.notEqual(row, await cache.get('b'));
    await store.models.Session.upsert({ id: 'b', data: { accountId: 10 }, accountId: 10, expiresAt: later() });
    assert.equal((await cache.get('b'))?.accountId, 10);
    assert.ok(await cache.get('c'));
    // Sign out everywhere: a bulk destroy by another column forgets every row.
    await store.models.Session.destroy({ where: { accountId: 7 } });
    assert.equal(await cache.get('c'), null);
    await (await store.models.Session.findByPk('b'))?.destroy();
    assert.equal(await cache.get('b'), null);
  });

  test('a read that races a write is answered but not kept', async () => {
    const cache = new RowCache(store.models.Session);
    await session('d', 1);
    const racing = cache.get('d');
    await store.models.Session.update({ accountId: 2 }, { where: { id: 'd' } });
    await racing;
    assert.equal((await cache.get('d'))?.accountId, 2);
  });

  test('requests arriving while a row is read share the one read, also once the TTL has passed', async () => {
    let now = 0;
    const cache = new RowCache(store.models.Session, 2000, () => now);
    await session('f', 3);
    reads = 0;
    const first = await Promise.all(Array.from({ length: 50 }, () => cache.get('f')));
    assert.ok(first.every((row) => row?.accountId === 3));
    assert.equal(reads, 1);
    now = 2000;
    const second = await Promise.all(Array.from({ length: 50 }, () => cache.get('f')));
    assert.ok(second.every((row) => row?.accountId === 3));
    assert.equal(reads, 2);
  });

  test('a failed read is not kept', async () => {
    const cache = new RowCache(store.models.Session);
    await session('g', 4);
    const original = store.models.Session.findByPk.bind(store.models.Session);
    store.models.Session.findByPk = (() => Promise.reject(new Error('SQLITE_BUSY'))) as typeof store.models.Session.findByPk;
    try {
      await assert.rejects(cache.get('g'), /SQLITE_BUSY/);
    } finally {
      store.models.Session.findByPk = original;
    }
    assert.equal((await cache.get('g'))?.accountId, 4);
  });

  test('a change made behind the models (another process) is seen once the TTL has passed', async () => {
    let now = 0;
    const cache = new RowCache(store.models.Session, 2000, () => now);
    await session('e', 1);
    assert.equal((await cache.get('e'))?.accountId, 1);
    await store.sequelize.query("UPDATE sessions SET accountId = 5 WHERE id = 'e'");
    now = 1999;
    assert.equal((await cache.get('e'))?.accountId, 1);
    now = 2000;
    assert.equal((await cache.get('e'))?.accountId, 5);
  });
});
