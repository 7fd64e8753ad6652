// Economy & Shop, Transactions and User Inventory in a real browser: shop add/edit/delete with the
// spec's toasts and fresh stats, Give Coins (the spec's 'Invalid Input', then a member searched by
// name), Export Economy Data as economy-data.csv, Reset with the spec's confirm, the ledger page with
// a filter and its CSV, an inventory with remove (never for roles), and a plain member reaching
// their rank and inventory through "Communities you're in".
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CurrentUserSchema } from '../../src/shared/auth';
import { waitFor } from '../helpers/wait';
import { browserSuite, pick, toastWith, VIEWPORTS } from './helpers';

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};
const guildId = () => world().demo.guildId;

/** Signs in with the demo login and opens a page of the demo guild. */
async function openPage(slug: string, heading: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/${slug}`, { viewport });
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

/** The signed-in user's Discord id. */
async function myId(page: Page): Promise<string> {
  const me = CurrentUserSchema.parse(await page.evaluate(async () => (await fetch('/api/auth/me')).json()));
  return me.discordId;
}

describe('Economy & Shop', () => {
  test('shop items: the form says what is missing; add, edit and delete with the spec toasts, the stat follows', async () => {
    const page = await openPage('economy', 'Economy & Shop');
    await page.getByText('No shop items yet').waitFor();
    await page.getByText('No transactions yet').waitFor();
    const shopItems = page.locator('.stat-card').filter({ hasText: 'Shop Items' });
    await shopItems.getByText('0', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add Item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Shop Item' });
    // A new item starts as the spec's defaults (section 9): type role, price 0.
    assert.equal(await dialog.getByRole('combobox', { name: 'Type' }).textContent(), 'Role');
    assert.equal(await dialog.getByLabel('Price').inputValue(), '0');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await dialog.getByText('is required').first().waitFor();
    await dialog.getByLabel('Item Name').fill('Golden Hat');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Cosmetic', exact: true }).click();
    await dialog.getByLabel('Price').fill('50');
    await dialog.getByLabel('Description').fill('Shiny');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await toastWith(page, 'Shop item created');
    await page.getByRole('listitem').filter({ hasText: 'Golden Hat' }).waitFor();
    await shopItems.getByText('1', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit Golden Hat' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Shop Item' });
    await edit.getByLabel('Price').fill('75');
    await edit.getByRole('button', { name: 'Update Item' }).click();
    await toastWith(page, 'Shop item updated');
    await page.getByRole('listitem').filter({ hasText: 'Golden Hat' }).getByText('75').waitFor();
    const stored = await harness().product.store.models.ShopItem.findOne({ where: { guildId: guildId(), name: 'Golden Hat' } });
    assert.equal(stored?.price, 75);

    await page.getByRole('button', { name: 'Delete Golden Hat' }).click();
    await page.getByRole('dialog', { name: 'Delete Item' }).getByRole('button', { name: 'Delete' }).click();
    await toastWith(page, 'Item deleted');
    await page.getByText('No shop items yet').waitFor();
    await shopItems.getByText('0', { exact: true }).waitFor();
  });

  test('a role item selling staff permissions asks first: Cancel saves nothing, "Hand it out" saves it', async () => {
    const page = await openPage('economy', 'Economy & Shop');
    await page.getByRole('button', { name: 'Add Item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Shop Item' });
    await dialog.getByLabel('Item Name').fill('Deputy badge');
    await dialog.getByLabel('Price').fill('500');
    await pick(page, 'Role ID', 'Mod', /@Moderator.*Staff permissions: Kick Members, Ban Members, Manage Server/);
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    const ask = page.getByRole('dialog', { name: 'Hand out a role with staff permissions?' });
    await ask
      .getByText('@Moderator carries Kick Members, Ban Members and Manage Server: every member who gets it from the bot can use them.', { exact: false })
      .waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Add Item' }).waitFor();
    assert.equal(await page.getByTestId('toast').count(), 0, 'backing out is not a failure');
    assert.equal(await harness().product.store.models.ShopItem.count({ where: { guildId: guildId(), name: 'Deputy badge' } }), 0);

    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await ask.getByRole('button', { name: 'Hand it out' }).click();
    await toastWith(page, 'Shop item created');
    const stored = await harness().product.store.models.ShopItem.findOne({ where: { guildId: guildId(), name: 'Deputy badge' } });
    assert.equal(stored?.roleId, world().demo.roles.moderator);
    await stored?.destroy();
  });

  test('Give Coins: the spec message without a member, then a member found by name gets them; the ledger and the total follow', async () => {
    const page = await openPage('economy', 'Economy & Shop');
    await page.getByRole('button', { name: 'Give Coins to User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Give Coins to User' });
    await dialog.getByRole('button', { name: 'Give Coins' }).click();
    await toastWith(page, /Invalid Input[\s\S]*Please enter a valid username and amount/);

    const member = world().users.get(world().demo.plainMemberId);
    assert.ok(member);
    await dialog.getByRole('combobox', { name: 'Member' }).click();
    await page.keyboard.type(member.username.slice(0, 4));
    await page
      .getByRole('option', { name: new RegExp(member.username) })
      .first()
      .click();
    await dialog.getByLabel('Amount').fill('120');
    await dialog.getByLabel('Reason (optional)').fill('Event prize');
    await dialog.getByRole('button', { name: 'Give Coins' }).click();
    await toastWith(page, 'Coins Given');
    await page.getByRole('table', { name: 'Recent transactions' }).getByText('Event prize').waitFor();
    const wallet = await harness().product.store.models.UserCurrency.findOne({ where: { guildId: guildId(), userId: member.id } });
    assert.equal(wallet?.balance, 120);
    await page.locator('.stat-card').filter({ hasText: 'Total Currency' }).getByText('120', { exact: true }).waitFor();
  });

  test('Export Economy Data downloads economy-data.csv with the summary rows; Reset asks the spec question and zeroes balances', async () => {
    const page = await openPage('economy', 'Economy & Shop');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Economy Data' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'economy-data.csv');
    const csv = await readFile(await file.path(), 'utf8');
    assert.match(csv, /^Type,Name,Description,Price \/ Balance,Total Earned\r?\n/);
    assert.match(csv, /Total Users,,,\d+,/);
    assert.match(csv, /Total Currency,,,\d+,/);
    await toastWith(page, /Data Exported[\s\S]*Economy data has been downloaded as CSV/);

    await page.getByRole('button', { name: 'Reset Economy' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset Economy' });
    await confirm.getByText('Are you sure you want to reset the entire economy? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Reset Economy' }).click();
    await toastWith(page, 'Economy Reset');
    await page.locator('.stat-card').filter({ hasText: 'Total Currency' }).getByText('0', { exact: true }).waitFor();
    const total = await harness().product.store.models.UserCurrency.sum('balance', { where: { guildId: guildId() } });
    assert.equal(Number(total ?? 0), 0);
  });

  test('View All Transactions opens the ledger in a new tab; a type filter narrows it and the CSV follows the filter', async () => {
    const page = await openPage('economy', 'Economy & Shop');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'View All Transactions' }).click()]);
    await tab.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor();
    const table = tab.getByRole('table', { name: 'Transactions' });
    await table.getByText('Event prize').waitFor();
    await table.getByText('Reset').first().waitFor();

    await tab.getByRole('combobox', { name: 'Type' }).click();
    await tab.getByRole('option', { name: 'Admin' }).click();
    await waitFor(async () => (await table.getByText('Reset', { exact: true }).count()) === 0, 10_000, 'reset rows to be filtered out');
    await table.getByText('Event prize').waitFor();

    const download = tab.waitForEvent('download');
    await tab.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'transactions.csv');
    const csv = await readFile(await file.path(), 'utf8');
    assert.match(csv, /Event prize/);
    assert.doesNotMatch(csv, /,reset,/);
  });

  test('on a phone the page fits the screen', async () => {
    const page = await openPage('economy', 'Economy & Shop', VIEWPORTS.mobile);
    await page.getByRole('button', { name: 'Give Coins to User' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll (overflow ${overflow}px)`);
  });
});

describe('User Inventory', () => {
  test("the signed-in person's own items: remove works for a cosmetic, a role item has no remove; empty shows 'No Items Yet' and 'Visit Shop'", async () => {
    const page = await openPage('inventory', 'User Inventory');
    const userId = await myId(page);
    await page.getByText('No Items Yet').waitFor();
    await page.getByRole('link', { name: 'Visit Shop' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Visit Shop' }).getAttribute('href'), `/server/${guildId()}/economy`);

    const { UserInventory } = harness().product.store.models;
    const now = new Date();
    await UserInventory.create({ guildId: guildId(), userId, itemId: null, itemName: 'Party Hat', itemType: 'cosmetic', quantity: 2, acquiredAt: now });
    await UserInventory.create({ guildId: guildId(), userId, itemId: null, itemName: 'VIP', itemType: 'role', quantity: 1, acquiredAt: now });
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'Party Hat' }).waitFor();
    await page.locator('.stat-card').filter({ hasText: 'Total Items' }).getByText('3', { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Remove VIP' }).count(), 0, 'a role item cannot be removed');
    await page.getByText('Your rank', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Remove Party Hat' }).click();
    await page.getByRole('dialog', { name: 'Remove Item' }).getByRole('button', { name: 'Remove' }).click();
    await toastWith(page, 'Item Removed');
    await waitFor(async () => (await page.getByRole('listitem').filter({ hasText: 'Party Hat' }).count()) === 0, 10_000, 'the item to go');
    assert.equal(await UserInventory.count({ where: { guildId: guildId(), userId, itemName: 'Party Hat' } }), 0);
  });

  test("a member without dashboard access finds the server under 'Communities you're in' and sees only their rank and inventory", async () => {
    const page = await harness().openSignedIn('/dashboard', { identity: { username: 'plainvisitor', id: '100000000000000777' } });
    const userId = await myId(page);
    world().setMemberRoles(guildId(), userId, []);
    await waitFor(
      async () => !(await harness().product.services.access.of(guildId(), userId)).level.match(/admin|manage/),
      10_000,
      'the role change to reach the bot',
    );
    await page.goto('/servers');
    const community = page.getByTestId('community-card').first();
    await community.waitFor();
    await page.getByRole('heading', { name: "Communities you're in" }).waitFor();
    await community.getByRole('link', { name: 'My Rank & Inventory' }).click();
    await page.getByRole('heading', { name: 'User Inventory', level: 1 }).waitFor();
    await page.getByText('Your rank', { exact: true }).waitFor();
    await page.getByText('No Items Yet').waitFor();
    await page.getByTestId('server-label').filter({ hasText: 'Sandbox Community' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Server' });
    await nav.getByRole('link', { name: 'User Inventory' }).waitFor();
    assert.equal(await nav.getByRole('link').count(), 1, 'only the member pages are in the sidebar');
    assert.equal(await page.getByRole('combobox', { name: 'Member' }).count(), 0, 'a member cannot pick others');
  });
});
