// The store on a SQLite file (src/db/sqlite.ts): reads are not held up by writes waiting for the
// lock, each write waits at most LOCK_WAIT_MS from when it was asked (its turn and the lock
// together), a refused write is the store being busy and changes nothing, and the connection the
// writes share enforces foreign keys.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { lockFile, watchWrites } from '../../test/ops/store-locks';
import { waitFor } from '../../test/helpers/wait';
import { storeFailure } from '../core/store-errors';
import { LOCK_WAIT_MS } from './locks';
import { openStore, type Store } from './store';

const GUILD = '900000000000000001';

/** A write under way: whether it settled, how, and how long after it was asked. */
function asked(write: () => Promise<unknown>) {
  const started = performance.now();
  let outcome: { error: unknown; ms: number } | null = null;
  const done = write().then(
    () => {
      outcome = { error: null, ms: performance.now() - started };
    },
    (error: unknown) => {
      outcome = { error, ms: performance.now() - started };
    },
  );
  return { settled: () => outcome !== null, outcome: async () => (await done, outcome ?? { error: null, ms: 0 }) };
}

describe('the store on a SQLite file locked by another program', () => {
  let file: string;
  let store: Store;
  beforeEach(async () => {
    file = path.join(mkdtempSync(path.join(tmpdir(), 'sqlite-store-')), 'bot.sqlite');
    store = await openStore(`sqlite:${file}`);
    await store.migrate();
  });
  afterEach(() => store.close());

  test('reads answer at once while writes wait; each write is refused as busy within the wait of its own ask, and writes nothing', async () => {
    const { GuildState, GuildSettings } = store.models;
    const writes = watchWrites(store);
    const warned = mock.method(console, 'warn', () => undefined);
    const lock = await lockFile(file);
    try {
      // A write outside a transaction, a transaction, and another write outside one, asked in that order.
      const first = asked(() => GuildState.upsert({ guildId: GUILD, key: 'lastSeenAt', value: 'first', updatedAt: new Date() }));
      await waitFor(() => writes.waiting() > 0, LOCK_WAIT_MS, 'the first write to wait for the lock');
      const second = asked(() =>
        store.sequelize.transaction((transaction) => GuildSettings.create({ guildId: GUILD, data: {}, updatedAt: new Date() }, { transaction })),
      );
      const third = asked(() => GuildState.upsert({ guildId: GUILD, key: 'rulesMessage', value: 'third', updatedAt: new Date() }));

      const started = performance.now();
      assert.equal(await GuildSettings.count(), 0);
      assert.ok(await store.ping(), 'the health check reads too');
      const readMs = performance.now() - started;
      assert.ok(readMs < 1000, `the reads took ${Math.round(readMs)} ms while writes waited`);
      assert.ok(!first.settled() && writes.waiting() > 0, 'the first write still waited after the reads, else they prove nothing');

      for (const [name, write] of Object.entries({ first, second, third })) {
        const { error, ms } = await write.outcome();
        assert.equal(storeFailure(error)?.trouble, 'busy', `the ${name} write: ${String(error)}`);
        assert.ok(ms >= LOCK_WAIT_MS - 500 && ms <= LOCK_WAIT_MS + 2000, `the ${name} write was refused ${Math.round(ms)} ms after it was asked`);
      }
      assert.equal(warned.mock.callCount(), 0, 'nothing but the error: no console output from Sequelize');
    } finally {
      warned.mock.restore();
      writes.stop();
      await lock.release();
    }
    assert.equal(await GuildState.count(), 0, 'the refused writes wrote nothing');
    assert.equal(await GuildSettings.count(), 0);
    await GuildState.upsert({ guildId: GUILD, key: 'lastSeenAt', value: 'after', updatedAt: new Date() });
    assert.equal((await GuildState.findOne({ where: { guildId: GUILD } }))?.value, 'after', 'writes work once the lock is gone');
  });

  test('the connection the writes share enforces foreign keys, inside a transaction and out', async () => {
    const { Session } = store.models;
    const orphan = { data: {}, accountId: 4242, expiresAt: new Date(Date.now() + 60_000) };
    await assert.rejects(Session.create({ id: 'a'.repeat(64), ...orphan }), /FOREIGN KEY/);
    await assert.rejects(
      store.sequelize.transaction((transaction) => Session.create({ id: 'b'.repeat(64), ...orphan }, { transaction })),
      /FOREIGN KEY/,
    );
    assert.equal(await Session.count(), 0);
  });
});
