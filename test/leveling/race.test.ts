// XP under concurrency, on a SQLite file (separate connections: the store writer's and the
// product's) and on PostgreSQL when TEST_DATABASE_URL is set: a server-wide reset raced against XP
// being earned (voice XP flushed by the write-behind) and admin adjustments loses nothing and
// counts nothing twice (every XP lands either in the backup or in the rows after the reset), every
// row's level follows its total, and the restore then puts back exactly the backup.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adjustXp } from '../../src/features/leveling/adjustments';
import { resetLevels, restoreBackup } from '../../src/features/leveling/backups';
import { levelingState } from '../../src/features/leveling/state';
import { levelFromTotal } from '../../src/shared/leveling';
import { restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';

const ROUNDS = 30;
const VOICE_XP = 7;

for (const backend of storeBackends()) {
  describe(`levels under concurrency on ${backend.name}`, () => {
    test('a server reset raced against earned XP and adjustments: the backup plus the rows after hold every XP once', async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url, memberCount: 20 } : { memberCount: 20 });
      try {
        const product = await r.start();
        const { services, store } = product;
        const { guildId, adminUserId } = r.sandbox.world.demo;
        const members = [...r.sandbox.world.requireGuild(guildId).members.keys()]
          .map((id) => r.sandbox.world.users.get(id))
          .flatMap((user) => (user && !user.bot ? [{ id: user.id, username: user.username }] : []))
          .slice(0, 8);
        assert.ok(members.length >= 4, `members: ${members.length}`);
        const actor = { userId: adminUserId, name: 'admin' };
        const { accruals } = levelingState.of(services);
        for (const member of members) await adjustXp(services, guildId, { userId: member.id, amount: 100, reason: 'seed' }, actor);
        let added = members.length * 100;
        const sumRows = async () => Number((await store.models.UserLevel.sum('totalXp', { where: { guildId } })) ?? 0);
        assert.equal(await sumRows(), added);

        // Earning: voice XP for every member, flushed round after round, while adjustments run and
        // the reset lands in the middle.
        let halfway: () => void = () => undefined;
        const atHalfway = new Promise<void>((resolve) => (halfway = resolve));
        const earning = (async () => {
          for (let round = 0; round < ROUNDS; round += 1) {
            if (round === ROUNDS / 2) halfway();
            for (const member of members) accruals.voice(guildId, member.id, member.username, VOICE_XP);
            added += members.length * VOICE_XP;
            await accruals.flush();
          }
        })();
        const adjusting = Promise.all(
          Array.from({ length: ROUNDS }, async (_, i) => {
            const member = members[i % members.length];
            if (!member) return;
            await adjustXp(services, guildId, { userId: member.id, amount: 3, reason: `race ${i}` }, actor);
            added += 3;
          }),
        );
        const resetting = (async () => {
          await atHalfway;
          return resetLevels(services, guildId, {}, actor);
        })();
        const [, , reset] = await Promise.all([earning, adjusting, resetting]);
        // And some XP surely after the reset.
        for (const member of members) accruals.voice(guildId, member.id, member.username, VOICE_XP);
        added += members.length * VOICE_XP;
        while (accruals.pendingCount() > 0) await accruals.flush();

        const backup = await store.models.LevelBackup.findOne({ where: { guildId, id: reset.backupId ?? 0 } });
        const snapshot = JSON.parse(backup?.snapshot ?? '{"members":[]}') as {
          members: { userId: string; row: { totalXp: number; level: number; xp: number } | null }[];
        };
        const inBackup = snapshot.members.reduce((sum, member) => sum + (member.row?.totalXp ?? 0), 0);
        const after = await sumRows();
        assert.equal(inBackup + after, added, 'every XP is in the backup or in the rows after the reset, once');
        assert.ok(inBackup > members.length * 100 && after > 0, `XP on both sides of the reset (${inBackup} before, ${after} after)`);
        for (const member of snapshot.members) {
          if (member.row) assert.deepEqual(levelFromTotal(member.row.totalXp), { level: member.row.level, xp: member.row.xp }, 'the backup is consistent');
        }
        const rows = await store.models.UserLevel.findAll({ where: { guildId } });
        for (const row of rows) assert.deepEqual(levelFromTotal(row.totalXp), { level: row.level, xp: row.xp }, `${row.userId}'s level follows the total`);
        const history = await store.models.XpAdjustment.findAll({ where: { guildId } });
        assert.equal(history.length, members.length + ROUNDS, 'one history row per adjustment');

        // The restore, raced against more earning: the covered members get the backup's totals
        // plus only what landed after the restore.
        await restoreBackup(services, guildId, reset.backupId ?? 0, actor);
        for (const member of snapshot.members) {
          const row = await store.models.UserLevel.findOne({ where: { guildId, userId: member.userId } });
          assert.equal(row?.totalXp ?? 0, member.row?.totalXp ?? 0, 'the restore puts back exactly the backup');
        }
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  });
}
