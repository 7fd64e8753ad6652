// Reset and restore on the Leveling page in a real browser (issue 25, point 1): the whole server
// reset after a confirmation naming what is reset, the leaderboard empty, the backup restored with
// one click, the leaderboard back; and an import previewed from a picked file, then applied.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adjustXp } from '../../src/features/leveling/adjustments';
import { waitFor } from '../helpers/wait';
import { browserSuite, toastWith } from './helpers';

const harness = browserSuite();
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

describe('Leveling reset and restore', () => {
  test('reset the server, restore it, and the leaderboard is back', async () => {
    const { product } = harness();
    const world = product.sandbox?.world;
    assert.ok(world);
    const members = ['resetter_a', 'resetter_b', 'resetter_c'].map((username) => world.addMember(guildId(), { username }));
    await waitFor(() => members.every((member) => product.client.guilds.cache.get(guildId())?.members.cache.has(member.userId)), 10_000, 'the bot to see them');
    const admin = { userId: world.demo.adminUserId, name: 'admin' };
    for (const [index, member] of members.entries()) {
      await adjustXp(product.services, guildId(), { userId: member.userId, amount: 500 * (index + 1), reason: 'seed' }, admin);
    }
    const page = await harness().openSignedIn(`/server/${guildId()}/leveling`);
    const leaderboard = page.getByRole('table', { name: /Leaderboard/ });
    await leaderboard.getByText('resetter_c').waitFor();
    await page.getByText('No backups').waitFor();

    await page.getByRole('button', { name: 'Reset every member' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset every member?' });
    await confirm.getByText(/Every member's XP and level goes back to level 1 with no XP \(\d+ members?\)/).waitFor();
    await confirm.getByRole('button', { name: 'Reset every member' }).click();
    await toastWith(page, /Levels Reset[\s\S]*Every member’s XP and level are reset/);
    await page.getByText('No one has earned XP yet').waitFor();
    const backup = page.getByTestId('level-backup').first();
    await backup.getByText(/Reset the whole server’s levels/).waitFor();
    await backup.getByText('7 days left').waitFor();

    await backup.getByRole('button', { name: /^Restore/ }).click();
    const restore = page.getByRole('dialog', { name: 'Restore this backup?' });
    await restore.getByText(/XP they earned since is replaced/).waitFor();
    await restore.getByRole('button', { name: 'Restore' }).click();
    await toastWith(page, /Levels Restored[\s\S]*Restored \d+ members/);
    await leaderboard.getByText('resetter_c').waitFor();
    await leaderboard.getByText('resetter_a').waitFor();
    await backup.getByText(/^Restored by/).waitFor();
    const rows = await product.store.models.UserLevel.findAll({ where: { guildId: guildId(), userId: members.map((member) => member.userId) } });
    assert.deepEqual(
      rows.map((row) => row.totalXp).sort((a, b) => a - b),
      [500, 1000, 1500],
    );
  });

  test('an import: a file picked, its preview, then applied', async () => {
    const { product } = harness();
    const world = product.sandbox?.world;
    assert.ok(world);
    const member = world.addMember(guildId(), { username: 'importee' });
    await waitFor(() => product.client.guilds.cache.get(guildId())?.members.cache.has(member.userId), 10_000, 'the bot to see them');
    const page = await harness().openSignedIn(`/server/${guildId()}/leveling`);
    const card = page.getByRole('region', { name: 'Import preview' });
    await page
      .getByTestId('levels-import-file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`user_id,xp\n${member.userId},many\n`) });
    await page
      .getByRole('alert')
      .getByText(/Line 2: the XP “many” is not a whole number/)
      .waitFor();
    await page
      .getByTestId('levels-import-file')
      .setInputFiles({ name: 'levels.csv', mimeType: 'text/csv', buffer: Buffer.from(`user_id,xp\n${member.userId},2000\n`) });
    await card.getByText('importee').waitFor();
    await card.getByText('Level 1 · 0 XP').waitFor();
    await card.getByRole('button', { name: 'Import 1 members' }).click();
    await toastWith(page, /Levels Imported[\s\S]*Imported the XP of 1 member/);
    await page
      .getByRole('table', { name: /Leaderboard/ })
      .getByText('importee')
      .waitFor();
    const row = await product.store.models.UserLevel.findOne({ where: { guildId: guildId(), userId: member.userId } });
    assert.equal(row?.totalXp, 2000);
  });
});
