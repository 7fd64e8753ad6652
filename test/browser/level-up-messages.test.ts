// The Level-up messages and XP rules cards in a real browser: an unknown placeholder is named under
// the template as it is typed, the preview follows the template and the chips, the save keeps it;
// a role multiplier out of range comes back under its row, and a fixed one saves.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSuite, pick, toastWith } from './helpers';

const harness = browserSuite();
const demo = () => {
  const world = harness().product.sandbox?.world;
  assert.ok(world);
  return world.demo;
};

describe('Level-up messages and XP rules', () => {
  test('edit the template, see the preview change, save; a role multiplier out of range is refused under its row', async () => {
    const { guildId, roles } = demo();
    const page = await harness().openSignedIn(`/server/${guildId}/leveling`);
    await page.getByRole('heading', { name: 'Level-up messages' }).waitFor();
    const template = page.getByLabel('Level-up message', { exact: true });
    const preview = page.getByRole('figure', { name: 'Preview' });
    await preview.getByText(/reached \*\*level 5\*\*!/).waitFor();

    await template.fill('Well done {user}, you are {rank} now');
    await page.getByText('uses {rank}, which is not a placeholder', { exact: false }).waitFor();
    await template.fill('Well done {user}: level {level} in ');
    await page.getByRole('group', { name: 'Insert into the level-up message' }).getByRole('button', { name: '{server}' }).click();
    await preview.getByText(/Well done @\S+: level 5 in Sandbox Community/).waitFor();
    assert.equal(await page.getByText('which is not a placeholder', { exact: false }).count(), 0, 'the problem goes once fixed');

    await pick(page, 'Role to give a multiplier', 'Memb', '@Member');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByLabel('Multiplier of @Member').fill('7');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Save Failed');
    await page.locator('.field-error', { hasText: 'Role multiplier #1: multiplier must be between 0.1 and 5.' }).waitFor();
    assert.equal((await harness().product.services.settings.get(guildId)).xpRoleMultipliers.length, 0, 'nothing was saved');

    await page.getByLabel('Multiplier of @Member').fill('2');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Leveling settings have been updated successfully.');
    const saved = await harness().product.services.settings.get(guildId);
    assert.equal(saved.levelUpMessage, 'Well done {user}: level {level} in {server}');
    assert.deepEqual(saved.xpRoleMultipliers, [{ id: roles.member, multiplier: 2 }]);

    await page.reload();
    await page
      .getByRole('figure', { name: 'Preview' })
      .getByText(/Well done @\S+: level 5 in Sandbox Community/)
      .waitFor();
  });
});
