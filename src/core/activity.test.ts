import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QueryTypes } from 'sequelize';
import type { Store } from '../db/store';
import { createLogger } from '../logger';
import { createTestStore, storeBackends } from '../../test/helpers/store';
import { openStoreWriter } from '../db/writer';
import { WRITE_JOBS } from '../write-jobs';
import { ActivityRecorder, LAST_POST_PRECISION_MS } from './activity';
import { serverOverview, serverStats } from '../features/stats/service';

const guild = { id: '900000000000000001', name: 'G', icon: null, memberCount: 42, ownerId: '1' };

for (const backend of storeBackends()) {
  describe(`activity recorder on ${backend.name}`, () => {
    /**
     * A fresh store and a recorder writing to it as the product's does (through the store writer's
     * thread on PostgreSQL) for `run`; the store is dropped after.
     */
    async function withRecorder(run: (store: Store, recorder: ActivityRecorder) => Promise<void>): Promise<void> {
      const { store, url, dispose } = await createTestStore(backend);
      const logger = createLogger('silent');
      const writer = await openStoreWriter(url, store.sequelize, WRITE_JOBS, logger);
      try {
        await run(store, new ActivityRecorder(writer, logger));
      } finally {
        await writer.close();
        await dispose();
      }
    }

    test('flushes add to the stored counters instead of overwriting them', async () => {
      await withRecorder(async (store, recorder) => {
        const now = new Date();
        for (let i = 0; i < 250; i += 1) recorder.message(guild.id, String(1000 + (i % 5)), now);
        recorder.join(guild.id, now);
        recorder.command(guild.id, 'ping', now);
        await recorder.flush();
        recorder.message(guild.id, '1000', now);
        recorder.command(guild.id, 'ping', now);
        await recorder.flush();

        const overview = await serverOverview(store, guild, now);
        assert.deepEqual(overview.activity.at(-1), { date: now.toISOString().slice(0, 10), messages: 251, joins: 1 });
        assert.equal(overview.activity.filter((day) => day.messages > 0).length, 1);
        assert.equal(overview.commandsUsed, 2);
        assert.equal(overview.activeUsers, 5);
        assert.equal(overview.memberCount, 42);
      });
    });

    test('members who last posted more than 7 days ago are not active, and a later post is kept over an older one', async () => {
      await withRecorder(async (store, recorder) => {
        const now = new Date();
        const old = new Date(now.getTime() - 8 * 86_400_000);
        recorder.message(guild.id, '1', old);
        recorder.message(guild.id, '2', now);
        await recorder.flush();
        recorder.message(guild.id, '2', old); // arrives late, older than what is stored
        await recorder.flush();
        const stats = await serverStats(store, [guild], now);
        assert.equal(stats.activeUsers, 1);
        assert.equal(stats.totalMembers, 42);
      });
    });

    test('messages either side of midnight UTC count on their own days, in any order', async () => {
      await withRecorder(async (store, recorder) => {
        const midnight = Date.UTC(2026, 10, 22);
        recorder.message(guild.id, '1', midnight - 1);
        recorder.message(guild.id, '2', midnight);
        recorder.message(guild.id, '1', midnight - 86_400_000 - 1); // late, and older than its author's last post
        recorder.message(guild.id, '3', new Date(midnight + 5000));
        await recorder.flush();
        const rows = await store.sequelize.query<{ day: string; messages: number }>('SELECT "day", "messages" FROM guild_daily_stats ORDER BY "day"', {
          type: QueryTypes.SELECT,
        });
        assert.deepEqual(
          rows.map((row) => [String(row.day).slice(0, 10), Number(row.messages)]),
          [
            ['2026-11-20', 1],
            ['2026-11-21', 1],
            ['2026-11-22', 2],
          ],
        );
        const last = await store.sequelize.query<{ userId: string; lastMessageAt: string | Date }>(
          'SELECT "userId", "lastMessageAt" FROM member_activity ORDER BY "userId"',
          { type: QueryTypes.SELECT },
        );
        assert.deepEqual(
          last.map((row) => [row.userId, new Date(row.lastMessageAt).getTime()]),
          [
            ['1', midnight - 1],
            ['2', midnight],
            ['3', midnight + 5000],
          ],
        );
      });
    });

    test("a member's last post is written again once it is an hour newer than the one written", async () => {
      await withRecorder(async (store, recorder) => {
        const lastWritten = async () => {
          const rows = await store.sequelize.query<{ lastMessageAt: string | Date }>('SELECT "lastMessageAt" FROM member_activity WHERE "userId" = ?', {
            replacements: ['7'],
            type: QueryTypes.SELECT,
          });
          return rows[0] ? new Date(rows[0].lastMessageAt).getTime() : null;
        };
        const start = Date.UTC(2026, 10, 22, 12);
        recorder.message(guild.id, '7', start);
        await recorder.flush();
        assert.equal(await lastWritten(), start);
        recorder.message(guild.id, '7', start + LAST_POST_PRECISION_MS - 1);
        await recorder.flush();
        assert.equal(await lastWritten(), start, 'within the hour: not written again');
        recorder.message(guild.id, '7', start + LAST_POST_PRECISION_MS);
        await recorder.flush();
        assert.equal(await lastWritten(), start + LAST_POST_PRECISION_MS);
      });
    });

    test('a failed flush keeps its counts for the next one', async () => {
      await withRecorder(async (store, recorder) => {
        const now = new Date();
        recorder.message(guild.id, '1', now);
        await store.sequelize.query('ALTER TABLE guild_daily_stats RENAME TO guild_daily_stats_away');
        await recorder.flush();
        await store.sequelize.query('ALTER TABLE guild_daily_stats_away RENAME TO guild_daily_stats');
        await recorder.flush();
        const overview = await serverOverview(store, guild, now);
        assert.equal(overview.activity.at(-1)?.messages, 1);
        assert.equal(overview.activeUsers, 1);
      });
    });
  });
}
