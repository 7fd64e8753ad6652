// GET /leveling/stats: Total Users, Highest Level (from the most XP any member has) and XP per day.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { levelFromTotal, totalXpForLevel } from '../../src/shared/leveling';
import { useHarness } from '../helpers/harness';

describe('leveling stats', () => {
  const h = useHarness();

  test('zero before anyone earns; then the member count and the level of the most XP', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const url = `/api/servers/${h().guildId}/leveling/stats`;
    const empty = (await admin.get(url).expect(200)).body as { totalUsers: number; highestLevel: number; daily: unknown[] };
    assert.deepEqual([empty.totalUsers, empty.highestLevel, empty.daily.length], [0, 0, 30]);

    const { UserLevel } = h().product.store.models;
    const totals = [0, 150, totalXpForLevel(7) + 3, totalXpForLevel(4)];
    await Promise.all(
      totals.map((totalXp, i) =>
        UserLevel.create({ guildId: h().guildId, userId: `90000000000000000${i}`, username: `m${i}`, ...levelFromTotal(totalXp), totalXp, messagesCount: 1 }),
      ),
    );
    const stats = (await admin.get(url).expect(200)).body as { totalUsers: number; highestLevel: number };
    assert.equal(stats.totalUsers, 4);
    assert.equal(stats.highestLevel, 7);
  });
});
