// No dead ends (issue 26, point 4): a plain member on a page only managers may open is told why
// and led to their rank and inventory ('Back to Server' goes there too); an unprefixed page
// (/economy, /welcome, ...) opens in the server used last, or, with none remembered, shows a
// picker that says why it asks instead of landing silently on /servers. The demo login's accounts
// stand in for the members (see openAsMember).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { waitFor } from '../helpers/wait';
import { browserSuite } from './helpers';

const harness = browserSuite();
const demo = () => {
  const world = harness().product.sandbox?.world;
  assert.ok(world, 'the product runs its sandbox');
  return world.demo;
};

/**
 * `path` for a plain member of Sandbox Community: the demo login makes its accounts Admins there,
 * so the account's roles are taken away once it is signed in, and the page opens once the bot
 * sees it without rights.
 */
async function openAsMember(target: string, id: string): Promise<Page> {
  const page = await harness().openSignedIn('/dashboard', { identity: { username: `member_${id.slice(-3)}`, id } });
  const { guildId } = demo();
  harness().product.sandbox?.world.setMemberRoles(guildId, id, []);
  await waitFor(async () => (await harness().product.services.access.of(guildId, id)).level === 'member' || null, 10_000, 'the member to lose their rights');
  await page.goto(target);
  return page;
}
const path = (page: Page) => new URL(page.url()).pathname;

describe('a plain member on a page for managers', () => {
  test('/server/{id}/welcome says why and offers their rank and inventory, and My Servers', async () => {
    const { guildId } = demo();
    const page = await openAsMember(`/server/${guildId}/welcome`, '100000000000000801');
    const main = page.locator('main');
    await main.getByText('This page is for the people who manage Sandbox Community.').waitFor();
    await page.getByRole('heading', { name: 'Access Denied', level: 1 }).waitFor();
    assert.equal(await main.getByRole('link', { name: 'My Servers' }).getAttribute('href'), '/servers');
    assert.equal(await page.title(), 'Access Denied · Sandbox Community · AwesomeBot Dashboard');

    await main.getByRole('link', { name: 'My Rank & Inventory' }).click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/inventory`);
    await page.getByRole('heading', { name: 'User Inventory', level: 1 }).waitFor();
    await page.getByText('Your rank', { exact: true }).waitFor();
    assert.equal(await main.getByRole('link', { name: 'Back to Server' }).count(), 0, 'their inventory is where the server opens for them');
  });

  test("'Back to Server' leads a member to their rank and inventory, not to the dashboard they may not open", async () => {
    const { guildId } = demo();
    const page = await openAsMember(`/server/${guildId}/leveling`, '100000000000000802');
    await page.getByRole('heading', { name: 'Access Denied', level: 1 }).waitFor();
    const back = page.locator('main').getByRole('link', { name: 'Back to Server' });
    await page.waitForFunction((href) => document.querySelector('main a.back-button')?.getAttribute('href') === href, `/server/${guildId}/inventory`);
    await back.click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/inventory`);
    await page.getByText('Your rank', { exact: true }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Access Denied' }).count(), 0);

    // Typed in, the server's dashboard answers the same way: why, and the way to what is theirs.
    await page.goto(`/server/${guildId}/dashboard`);
    await page.locator('main').getByText('This page is for the people who manage Sandbox Community.').waitFor();
    assert.equal(await page.locator('main').getByRole('link', { name: 'My Rank & Inventory' }).getAttribute('href'), `/server/${guildId}/inventory`);
  });
});

describe('the unprefixed pages', () => {
  test('with a remembered server, /economy opens its Economy & Shop page', async () => {
    const { guildId } = demo();
    const page = await harness().openSignedIn(`/server/${guildId}/dashboard`);
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
    await page.waitForFunction((id) => window.localStorage.getItem('dashboard.lastServerId') === id, guildId);
    await page.goto('/economy');
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/economy`);
    await page.getByRole('heading', { name: 'Economy & Shop', level: 1 }).waitFor();
  });

  test('without one, /economy asks which server and says why; the choice opens it there and is remembered', async () => {
    const { guildId } = demo();
    const page = await harness().openSignedIn('/economy');
    await page.getByRole('heading', { name: 'Choose a Server', level: 1 }).waitFor();
    await page.getByText('Economy & Shop belongs to one server, and you have not opened a server in this browser yet.').waitFor();
    assert.equal(path(page), '/economy', 'not sent elsewhere silently');
    const list = page.getByRole('list', { name: 'Your servers' });
    await list.getByRole('listitem').first().waitFor();
    // Only servers where the page opens: the one without the bot and the community (a member there) are not offered.
    assert.deepEqual(await list.getByRole('heading').allTextContents(), ['Sandbox Community']);

    await list.getByRole('link', { name: 'Open Economy & Shop in Sandbox Community' }).click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/economy`);
    await page.getByRole('heading', { name: 'Economy & Shop', level: 1 }).waitFor();
    await page.waitForFunction((id) => window.localStorage.getItem('dashboard.lastServerId') === id, guildId);
    await page.goto('/welcome');
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/welcome`);
  });

  test('a member without a remembered server is offered their community for /inventory, and told why /welcome has none', async () => {
    const { guildId } = demo();
    const page = await openAsMember('/inventory', '100000000000000803');
    await page.getByRole('heading', { name: 'Choose a Server', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Your servers' });
    await list.getByRole('listitem').first().waitFor();
    assert.deepEqual(await list.getByRole('heading').allTextContents(), ['Sandbox Community']);
    await list.getByRole('link', { name: 'Open User Inventory in Sandbox Community' }).click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/inventory`);
    await page.getByText('Your rank', { exact: true }).waitFor();

    const fresh = await openAsMember('/welcome', '100000000000000804');
    await fresh.getByRole('heading', { name: 'No server to open it in' }).waitFor();
    await fresh.getByText('Welcome System opens in a server with the bot where you have the Manage Server permission or dashboard access').waitFor();
    assert.equal(await fresh.locator('main').getByRole('link', { name: 'My Servers' }).getAttribute('href'), '/servers');
    assert.equal(path(fresh), '/welcome');
  });
});
