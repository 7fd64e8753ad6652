// The Leveling System page in a real browser: the settings and a multiplier saved with the spec's
// toast and shown after a reload, a value out of range refused with 'Save Failed' and the reason,
// empty input saved as 0, a role reward added (after a refused level) and deleted, and the
// leaderboard filled by messages posted through the sandbox, ten a page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { waitFor } from '../helpers/wait';
import { browserSuite, pick, toastWith, VIEWPORTS } from './helpers';
import { levelingState } from '../../src/features/leveling/state';

const harness = browserSuite();

const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

async function openLeveling(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/leveling`, { viewport });
  await page.getByRole('heading', { name: 'Leveling System', level: 1 }).waitFor();
  await page.getByLabel('Level-up bonus').waitFor();
  return page;
}

describe('Leveling System', () => {
  test('the stat cards show; the leaderboard and the chart are empty before any XP', async () => {
    const page = await openLeveling();
    assert.equal(await page.title(), 'Leveling System · Sandbox Community · AwesomeBot Dashboard');
    await page.getByText('XP per Message', { exact: true }).waitFor();
    await page.getByText('5-20', { exact: true }).waitFor();
    await page.getByText('No one has earned XP yet').waitFor();
    await page.getByText('No XP earned yet').waitFor();
  });

  test('change settings and a multiplier, save with the spec toast, and a reload shows them', async () => {
    const page = await openLeveling();
    await page.getByLabel('Level-up bonus').fill('250');
    await page.getByLabel('XP cooldown (seconds)').fill('30');
    await page.getByLabel('Weekend multiplier').fill('2.5');
    await page.getByRole('switch', { name: 'Level-up announcements' }).click();
    await page.getByRole('switch', { name: 'Stack role rewards' }).click();
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, /Settings Saved[\s\S]*Leveling settings have been updated successfully\./);
    await page.getByText('All changes saved.').waitFor();

    const saved = await harness().product.services.settings.get(guildId());
    assert.equal(saved.levelUpBonus, 250);
    assert.equal(saved.xpCooldown, 30);
    assert.equal(saved.weekendMultiplier, 2.5);
    assert.equal(saved.levelUpAnnouncements, false);
    assert.equal(saved.levelRewardsStack, false);

    await page.reload();
    await page.getByLabel('Level-up bonus').waitFor();
    assert.equal(await page.getByLabel('Level-up bonus').inputValue(), '250');
    assert.equal(await page.getByLabel('XP cooldown (seconds)').inputValue(), '30');
    assert.equal(await page.getByLabel('Weekend multiplier').inputValue(), '2.5');
    assert.equal(await page.getByRole('switch', { name: 'Level-up announcements' }).getAttribute('data-state'), 'unchecked');
    assert.equal(await page.getByRole('switch', { name: 'Stack role rewards' }).getAttribute('data-state'), 'unchecked');
  });

  test('a value out of range is refused with Save Failed and the reason; an empty number saves as 0', async () => {
    const page = await openLeveling();
    await page.getByLabel('XP cooldown (seconds)').fill('100000');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, /Save Failed[\s\S]*XP cooldown/);
    await page.locator('.field-error', { hasText: 'XP cooldown must be between 0 and 86,400.' }).waitFor();
    assert.equal((await harness().product.services.settings.get(guildId())).xpCooldown !== 100_000, true, 'nothing was saved');

    await page.getByLabel('XP cooldown (seconds)').fill('45');
    await page.getByLabel('Level-up bonus').fill('');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Leveling settings have been updated successfully.');
    const saved = await harness().product.services.settings.get(guildId());
    assert.equal(saved.levelUpBonus, 0, 'bad input is parsed as 0');
    assert.equal(saved.xpCooldown, 45);
    assert.equal(await page.getByLabel('Level-up bonus').inputValue(), '0');
  });

  test('role rewards: a role is needed, the server refuses level 1, then add one and delete it', async () => {
    const page = await openLeveling();
    await page.getByText('No role rewards yet').waitFor();
    await page.getByRole('button', { name: 'Add Reward' }).click();
    await page.getByText('Pick the role to give.').waitFor();

    await page.getByLabel('Level', { exact: true }).fill('1');
    await pick(page, 'Reward role', 'Memb', '@Member');
    await page.getByLabel('Level', { exact: true }).press('Enter');
    await toastWith(page, /Could not add the role reward[\s\S]*[Ll]evel/);
    await page.locator('.field-error', { hasText: 'Level must be between 2 and 1,000.' }).waitFor();
    assert.equal(await page.getByText('You have unsaved changes.').count(), 0, 'Enter in the add row does not submit the settings');

    await page.getByLabel('Level', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Add Reward' }).click();
    await toastWith(page, /Role reward added[\s\S]*Members who reach level 5 get @Member\./);
    const list = page.getByRole('list', { name: 'Role rewards' });
    await list.getByText('Level 5').waitFor();
    const rows = await harness().product.store.models.LevelReward.findAll({ where: { guildId: guildId() } });
    assert.deepEqual(
      rows.map((row) => row.level),
      [5],
    );

    await page.getByRole('button', { name: 'Delete the level 5 reward (@Member)' }).click();
    await page.getByRole('dialog', { name: 'Delete this role reward?' }).getByRole('button', { name: 'Delete' }).click();
    await toastWith(page, 'Role reward removed');
    await page.getByText('No role rewards yet').waitFor();
  });

  test('the leaderboard lists members once they have chatted, ten a page', async () => {
    const { product } = harness();
    const world = product.sandbox?.world;
    assert.ok(world);
    const members = Array.from({ length: 12 }, (_, index) =>
      world.addMember(world.demo.guildId, { username: `chatter_${String(index + 1).padStart(2, '0')}` }),
    );
    await waitFor(
      () => members.every((member) => product.client.guilds.cache.get(world.demo.guildId)?.members.cache.has(member.userId)),
      10_000,
      'the bot to see the members',
    );
    for (const member of members) world.messages.create(world.demo.channels.general, { authorId: member.userId, content: 'hello everyone' });
    await waitFor(
      async () => {
        await levelingState.of(product.services).accruals.flush();
        return (await product.store.models.UserLevel.count({ where: { guildId: world.demo.guildId } })) >= members.length;
      },
      10_000,
      'the messages to earn XP',
    );

    const page = await openLeveling();
    const board = page.getByRole('table', { name: /Leaderboard/ });
    await board.waitFor();
    assert.equal(await board.getByRole('row').count(), 11, 'a header and ten members');
    assert.match(await board.innerText(), /#1[\s\S]*chatter_/);
    await page.getByText('Page 1 of 2', { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Previous' }).isDisabled(), true);
    await page.getByRole('img', { name: /XP earned per day/ }).waitFor();

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2', { exact: true }).waitFor();
    await board.getByText('#11').waitFor();
    assert.equal(await board.getByRole('row').count(), 3, 'a header and the last two');
    assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1 of 2', { exact: true }).waitFor();
    await board.getByText('#1', { exact: true }).waitFor();
  });

  test('on a phone the page fits the screen and the save bar is reachable', async () => {
    const page = await openLeveling(VIEWPORTS.mobile);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    await page.getByLabel('Text multiplier').fill('1.2');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Leveling settings have been updated successfully.');
    assert.equal((await harness().product.services.settings.get(guildId())).textMultiplier, 1.2);
  });
});

describe('two admins on the Leveling page', () => {
  /** The Leveling page signed in as `identity` (the demo admin when absent). */
  async function openAs(identity?: { username: string; id: string }): Promise<Page> {
    const page = await harness().openSignedIn(`/server/${guildId()}/leveling`, { identity });
    await page.getByLabel('Text multiplier').waitFor();
    return page;
  }
  const save = (page: Page) => page.getByRole('button', { name: 'Save Settings' }).click();

  test("a page loaded earlier saves only what its admin changed; a change over a colleague's asks, and keeps or reloads", async () => {
    const a = await openAs();
    const b = await openAs({ username: 'second_admin', id: '123456789012345678' });

    await a.getByLabel('Text multiplier').fill('1.7');
    await save(a);
    await toastWith(a, /Settings Saved/);
    // B's copy is older: B changes only the bonus, and A's multiplier stays.
    await b.getByLabel('Level-up bonus').fill('175');
    await save(b);
    await toastWith(b, /Settings Saved/);
    await b.getByText('All changes saved.').waitFor();
    const stored = await harness().product.services.settings.get(guildId());
    assert.equal(stored.textMultiplier, 1.7);
    assert.equal(stored.levelUpBonus, 175);
    assert.equal(await b.getByLabel('Text multiplier').inputValue(), '1.7', "B's page now shows A's change");

    // B starts setting the multiplier while A changes it again: B's page, being edited, keeps the
    // version B started from (an untouched page would follow A's save live), so B is asked and keeps theirs.
    await b.getByLabel('Text multiplier').fill('1.2');
    await a.getByLabel('Text multiplier').fill('1.9');
    await save(a);
    await waitFor(async () => (await harness().product.services.settings.get(guildId())).textMultiplier === 1.9 || null, 5000, "A's second save");
    await save(b);
    const asked = b.getByRole('dialog', { name: 'Changed while you were editing' });
    await asked
      .getByText(/changed Text multiplier from 1\.7 to 1\.9/)
      .first()
      .waitFor();
    // Meanwhile A sets it once more, from the 1.9 A saved.
    await a.getByLabel('Text multiplier').fill('3');
    await asked.getByRole('button', { name: 'Keep mine' }).click();
    await waitFor(async () => (await harness().product.services.settings.get(guildId())).textMultiplier === 1.2 || null, 5000, "B's value kept");
    await b.getByText('All changes saved.').waitFor();

    // A, who was editing when B's value landed, saves and chooses to reload: nothing saved, A's page shows B's value.
    await save(a);
    const askedA = a.getByRole('dialog', { name: 'Changed while you were editing' });
    await askedA
      .getByText(/changed Text multiplier from 1\.9 to 1\.2/)
      .first()
      .waitFor();
    await askedA.getByRole('button', { name: 'Reload' }).click();
    await askedA.waitFor({ state: 'hidden' });
    await waitFor(async () => (await a.getByLabel('Text multiplier').inputValue()) === '1.2' || null, 5000, "A's page to show B's value");
    assert.equal((await harness().product.services.settings.get(guildId())).textMultiplier, 1.2, 'nothing saved');
    await a.getByText('All changes saved.').waitFor();
  });
});
