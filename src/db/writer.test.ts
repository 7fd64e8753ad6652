// The store writer (src/db/writer.ts): on a SQLite file and on PostgreSQL its jobs run in a worker
// thread of their own, each all or nothing, in the order asked; what fails them comes back with
// its code; a thread that stops is started again; in-memory SQLite runs them on this thread.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import pg from 'pg';
import { QueryTypes } from 'sequelize';
import { storeBackends, type StoreBackend } from '../../test/helpers/store';
import { lockFile } from '../../test/ops/store-locks';
import { accrualRowsJson, type AccrualFlush, type AccrualRow } from '../features/leveling/flush';
import { WRITE_JOBS } from '../write-jobs';
import { createLogger } from '../logger';
import { storeFailure } from '../core/store-errors';
import { LOCK_WAIT_MS } from './locks';
import { openStore, type Store } from './store';
import { sqliteFile } from './url';
import { openStoreWriter } from './writer';

const GUILD = '900000000000000001';

/** A flush of `rows` under `id`. */
function flushOf(id: string, rows: AccrualRow[], retry = false): AccrualFlush {
  return { id, retry, at: Date.UTC(2026, 10, 25, 12), forgetBefore: null, bonusPerLevel: { [GUILD]: 100 }, rows: accrualRowsJson(rows) };
}

const member = (userId: string, xp: number, coins = 10, messages = 1): AccrualRow => ({
  guildId: GUILD,
  userId,
  username: `member ${userId}`,
  xp,
  coins,
  messages,
});

/** A file or PostgreSQL store, migrated, with a writer on it; dropped after. */
async function withWriter(
  backend: StoreBackend | 'file',
  run: (store: Store, writer: Awaited<ReturnType<typeof openStoreWriter<typeof WRITE_JOBS>>>, url: string) => Promise<void>,
): Promise<void> {
  const database =
    backend === 'file'
      ? { url: `sqlite:${path.join(mkdtempSync(path.join(tmpdir(), 'writer-')), 'bot.sqlite')}`, drop: async () => undefined }
      : await backend.createDatabase();
  const store = await openStore(database.url);
  try {
    await store.migrate();
    const writer = await openStoreWriter(database.url, store.sequelize, WRITE_JOBS, createLogger('silent'));
    try {
      await run(store, writer, database.url);
    } finally {
      await writer.close();
    }
  } finally {
    await store.close();
    await database.drop();
  }
}

const levelsOf = async (store: Store) =>
  new Map(
    (await store.models.UserLevel.findAll({ where: { guildId: GUILD } })).map((row) => [
      row.userId,
      { level: row.level, xp: row.xp, totalXp: row.totalXp, messages: row.messagesCount },
    ]),
  );

/** Holds the lock a flush needs from another connection, as another program would: SQLite's write lock, or PostgreSQL's user_levels. */
async function holdLock(url: string): Promise<{ release(): Promise<void> }> {
  const file = sqliteFile(url);
  if (file !== null) return lockFile(file);
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE user_levels IN EXCLUSIVE MODE');
  return {
    async release() {
      await locker.query('ROLLBACK');
      await locker.end();
    },
  };
}

/** The writer's worker thread (white box: the tests stop it as a crash would). */
const threadOf = (writer: unknown) => (writer as { worker: Promise<Worker> | null }).worker;

const backends: (StoreBackend | 'file')[] = ['file', ...storeBackends().filter((backend) => backend.name === 'postgres')];
for (const backend of backends) {
  describe(`the store writer's thread on ${backend === 'file' ? 'a SQLite file' : 'PostgreSQL'}`, () => {
    test('runs a flush in its own thread: totals, counts, coins, ledger and level-ups; a retry of a written flush writes nothing', async () => {
      await withWriter(backend, async (store, writer) => {
        assert.ok(threadOf(writer), 'the jobs run in a worker thread');
        const first = await writer.run('accruals', flushOf('flush-1', [member('1', 500), member('2', 0, 0, 3)]));
        assert.deepEqual(first, { written: true, levelUps: [{ guildId: GUILD, userId: '1', username: 'member 1', from: 1, to: 3, bonus: 200 }] });
        const again = await writer.run('accruals', flushOf('flush-1', [member('1', 500), member('2', 0, 0, 3)], true));
        assert.deepEqual(again, { written: false, levelUps: [] }, 'the retry of a flush that committed');
        assert.deepEqual(
          await levelsOf(store),
          new Map([
            ['1', { level: 3, xp: 125, totalXp: 500, messages: 1 }],
            ['2', { level: 1, xp: 0, totalXp: 0, messages: 3 }],
          ]),
        );
        const wallet = await store.models.UserCurrency.findOne({ where: { guildId: GUILD, userId: '1' } });
        assert.equal(wallet?.balance, 10 + 200, 'chat coins and the level bonus');
        const ledger = await store.models.Transaction.findAll({ where: { guildId: GUILD }, order: [['amount', 'ASC']] });
        assert.deepEqual(
          ledger.map((row) => [row.userId, row.type, row.amount, row.description]),
          [
            ['1', 'earn', 10, 'Chat rewards'],
            ['1', 'earn', 200, 'Level 3 bonus'],
          ],
        );
      });
    });

    test('a job that fails changes nothing and its error comes back with its code; jobs run in the order asked', async () => {
      await withWriter(backend, async (store, writer) => {
        await store.sequelize.query('ALTER TABLE transactions RENAME TO transactions_away');
        const failed = await writer.run('accruals', flushOf('flush-2', [member('1', 50)])).then(
          () => null,
          (error: unknown) => error as Error & { code?: string },
        );
        assert.ok(failed instanceof Error);
        assert.match(failed.message, /transactions/);
        assert.equal(typeof failed.code, 'string', "the driver's code crosses the thread");
        assert.equal(storeFailure(failed), null, 'a missing table is not the store being unavailable');
        assert.equal((await levelsOf(store)).size, 0, 'the totals written before the failing statement were rolled back');
        await store.sequelize.query('ALTER TABLE transactions_away RENAME TO transactions');
        // Asked at once: the retry runs after the flush it retries, so it finds its id written.
        const [flush, retry] = await Promise.all([
          writer.run('accruals', flushOf('flush-2', [member('1', 50)])),
          writer.run('accruals', flushOf('flush-2', [member('1', 50)], true)),
        ]);
        assert.deepEqual([flush.written, retry.written], [true, false]);
        assert.equal((await levelsOf(store)).get('1')?.totalXp, 50);
      });
    });

    test('with the lock held elsewhere, each job is refused as busy within the wait of its own ask, the second not after both waits', async () => {
      await withWriter(backend, async (store, writer, url) => {
        await writer.run('accruals', flushOf('flush-0', [member('1', 10)]));
        const lock = await holdLock(url);
        try {
          const started = performance.now();
          const outcomes = await Promise.all(
            ['flush-a', 'flush-b'].map((id) =>
              writer.run('accruals', flushOf(id, [member('1', 20)])).then(
                () => ({ error: null, ms: performance.now() - started }),
                (error: unknown) => ({ error, ms: performance.now() - started }),
              ),
            ),
          );
          for (const [index, { error, ms }] of outcomes.entries()) {
            assert.equal(storeFailure(error)?.trouble, 'busy', `job ${index + 1}: ${String(error)}`);
            assert.ok(ms >= LOCK_WAIT_MS - 500 && ms <= LOCK_WAIT_MS + 2000, `job ${index + 1} was refused ${Math.round(ms)} ms after it was asked`);
          }
        } finally {
          await lock.release();
        }
        assert.equal((await levelsOf(store)).get('1')?.totalXp, 10, 'the refused jobs wrote nothing');
        await writer.run('accruals', flushOf('flush-c', [member('1', 20)]));
        assert.equal((await levelsOf(store)).get('1')?.totalXp, 30, 'jobs run again once the lock is gone');
      });
    });

    test('a thread that stops fails the jobs it held and a new one runs the next', async () => {
      await withWriter(backend, async (store, writer) => {
        const thread = await threadOf(writer);
        assert.ok(thread);
        const held = writer.run('accruals', flushOf('flush-3', [member('1', 20)]));
        await thread.terminate();
        await assert.rejects(held, /the store writer stopped/);
        await writer.run('accruals', flushOf('flush-4', [member('1', 30)]));
        assert.notEqual(await threadOf(writer), thread, 'a new thread');
        const [row] = await store.sequelize.query<{ total: number | string }>('SELECT "totalXp" AS total FROM user_levels', { type: QueryTypes.SELECT });
        // flush-3 may have committed before the thread stopped: its outcome is unknown to the caller, which retries it by id.
        assert.ok([30, 50].includes(Number(row?.total)), `total ${row?.total}`);
        await writer.close();
        await assert.rejects(writer.run('accruals', flushOf('flush-5', [member('1', 1)])), /closed/);
      });
    });
  });
}

describe('the store writer on in-memory SQLite', () => {
  test('runs its jobs on this thread (no other connection sees the database)', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      await store.migrate();
      const writer = await openStoreWriter('sqlite::memory:', store.sequelize, WRITE_JOBS, createLogger('silent'));
      assert.equal(threadOf(writer), undefined, 'no worker thread');
      assert.equal((await writer.run('accruals', flushOf('flush-1', [member('1', 40)]))).written, true);
      assert.equal((await levelsOf(store)).get('1')?.totalXp, 40);
    } finally {
      await store.close();
    }
  });
});
