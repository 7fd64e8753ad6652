// The dashboard shell in a real browser: the login page, the 404 page, the mobile drawer and
// header, the server switcher and server ids the user cannot open.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSuite, signInWithDemo, VIEWPORTS } from './helpers';

const harness = browserSuite();

describe('signed out', () => {
  test('/login shows the intro, both sign-in buttons and the three feature cards', async () => {
    const page = await harness().open('/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    assert.ok(await page.getByRole('link', { name: 'Demo Login' }).isVisible());
    for (const title of ['Member Management', 'Economy & Leveling', 'Moderation Tools']) {
      assert.ok(await page.getByRole('heading', { name: title }).isVisible(), `feature card ${title}`);
    }
    assert.ok(await page.getByText('Welcome messages, role verification, and member tracking.').isVisible());
  });

  test('an unknown path shows the login page, and Demo Login leads to /test-auth, whose mock login reaches the dashboard', async () => {
    const page = await harness().open('/no/such/page');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/no/such/page');
    await page.getByRole('link', { name: 'Demo Login' }).click();
    await page.getByRole('heading', { name: 'Authentication Test' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/test-auth');
    // The form's own path; the other browser suites sign in through its API (signInByApi).
    await signInWithDemo(page);
  });

  test('a signed-in-only path such as /servers shows the login page', async () => {
    const page = await harness().open('/servers');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
  });
});

describe('signed in', () => {
  test('an unknown path shows Page Not Found inside the layout', async () => {
    const page = await harness().openSignedIn('/definitely/not/a/page');
    await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
    assert.ok(await page.getByRole('link', { name: /Dashboard: my servers/ }).isVisible(), 'header logo');
  });

  test('the user menu shows name#tag, Settings follows the server route, and Logout returns to /login', async () => {
    const guildId = harness().product.sandbox?.world.demo.guildId ?? '';
    const page = await harness().openSignedIn(`/server/${guildId}/dashboard`);
    await page.getByRole('button', { name: /Account menu for demo_admin/ }).click();
    const menu = page.getByRole('menu');
    assert.match((await menu.textContent()) ?? '', /demo_admin#0000/);
    assert.equal(await menu.getByRole('menuitem', { name: 'Settings' }).getAttribute('href'), `/server/${guildId}/settings`);
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
  });

  test('Sign out everywhere ends the sessions of every browser the user is signed in with', async () => {
    const laptop = await harness().openSignedIn('/dashboard');
    const phone = await harness().openSignedIn('/dashboard', { viewport: VIEWPORTS.mobile });
    await phone.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    await laptop.getByRole('button', { name: /Account menu for demo_admin/ }).click();
    await laptop.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await laptop.waitForURL((url) => url.pathname === '/login');
    await laptop.getByRole('button', { name: 'Continue with Discord' }).waitFor();

    await phone.reload();
    await phone.getByRole('button', { name: 'Continue with Discord' }).waitFor();
  });

  test('at 375 px the sidebar is a drawer: menu button opens it; Escape, the close button and the overlay close it', async () => {
    const page = await harness().openSignedIn('/servers', { viewport: VIEWPORTS.mobile });
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' });
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await menuButton.waitFor();
    assert.equal(await page.locator('aside.sidebar').count(), 0, 'no fixed sidebar on a phone');

    await menuButton.click();
    await drawer.waitFor();
    assert.ok(await drawer.getByRole('link', { name: 'My Servers' }).isVisible());
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    assert.ok(await menuButton.evaluate((element) => element === document.activeElement), 'focus returns to the menu button');

    await menuButton.click();
    await page.getByRole('button', { name: 'Close navigation menu' }).click();
    await drawer.waitFor({ state: 'hidden' });

    await menuButton.click();
    await drawer.waitFor();
    await page.getByTestId('drawer-overlay').click({ position: { x: 360, y: 400 } });
    await drawer.waitFor({ state: 'hidden' });

    await menuButton.click();
    await drawer.getByRole('link', { name: 'Add Bot' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Add Bot', level: 1 }).waitFor();
  });
});

describe('server mode', () => {
  test('the switcher atop the sidebar names the server and lists the servers and My Servers; it works by keyboard', async () => {
    const { guildId, thirdGuildId } = harness().product.sandbox?.world.demo ?? { guildId: '', thirdGuildId: '' };
    const page = await harness().openSignedIn(`/server/${guildId}/leveling`);
    await page.getByRole('heading', { name: 'Leveling System', level: 1 }).waitFor();

    const switcher = page.locator('aside.sidebar').getByRole('button', { name: /Sandbox Community\s*Switch server/ });
    await switcher.waitFor();
    await switcher.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = (await menu.getByRole('menuitem').allTextContents()).map((text) => text.replace(/^[A-Z]{1,3}(?=[A-Z][a-z])/, '').trim());
    assert.deepEqual(items, ['Sandbox Community', 'Other Community', 'My Servers'], 'the servers with the bot, the communities, then My Servers');
    assert.equal(await menu.getByRole('menuitem', { name: /Sandbox Community/ }).getAttribute('aria-current'), 'page');

    // Down to Other Community (a community: its member pages open), Enter. The menu first focuses
    // itself, then its first item: an arrow key sent before that only reaches the first item.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Other Community'));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/server/${thirdGuildId}/inventory`);
    await page.getByRole('heading', { name: 'User Inventory', level: 1 }).waitFor();
    await page
      .locator('aside.sidebar')
      .getByRole('button', { name: /Other Community\s*Switch server/ })
      .waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');

    // My Servers by typeahead.
    await page
      .locator('aside.sidebar')
      .getByRole('button', { name: /Switch server/ })
      .focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'menuitem');
    await page.keyboard.type('My');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('My Servers'));
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/servers');
    await page.getByRole('heading', { name: 'My Servers', level: 1 }).waitFor();
  });

  test('a server id that is not valid, not yours, or without the bot is explained, offers My Servers, and is not remembered', async () => {
    const { guildId, secondGuildId } = harness().product.sandbox?.world.demo ?? { guildId: '', secondGuildId: '' };
    const page = await harness().openSignedIn(`/server/${guildId}/dashboard`);
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
    const remembered = () => page.evaluate(() => window.localStorage.getItem('dashboard.lastServerId'));
    assert.equal(await remembered(), guildId);

    const cases = [
      { id: '123', heading: 'Server Not Found', text: '“123” is not a valid server id' },
      { id: '999999999999999999', heading: 'Server Not Found', text: 'None of your servers has the id 999999999999999999' },
      { id: secondGuildId, heading: 'Bot Missing', text: "The bot is not in Demo Admin's Workshop yet" },
    ];
    for (const { id, heading, text } of cases) {
      await page.goto(`/server/${id}/dashboard`);
      // While the server lists load, the page itself may answer first (the dashboard's own 404
      // also reads "Server Not Found"): wait for this problem's sentence, not only the heading.
      const main = page.locator('main');
      await main.getByText(text).waitFor();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      assert.equal(await main.getByRole('link', { name: 'My Servers' }).getAttribute('href'), '/servers');
      assert.equal(await main.getByRole('button', { name: 'Try again' }).count(), 0, `${id}: no Try again`);
      assert.equal(await main.getByText('digits only').count(), 0);
      assert.equal(await page.title(), `${heading} · AwesomeBot Dashboard`);
      assert.equal(await page.getByTestId('server-label').textContent(), 'No server selected', `${id}: the header names no server`);
      assert.equal(await remembered(), guildId, `${id}: not remembered as the current server`);
    }
    await page.goto('/economy');
    await page.waitForURL((url) => url.pathname === `/server/${guildId}/economy`);
  });

  test('at 375 px the header shows the product name, or the server name on its pages', async () => {
    const page = await harness().openSignedIn('/dashboard', { viewport: VIEWPORTS.mobile });
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const brand = page.locator('.brand-name');
    const label = page.getByTestId('server-label');
    const unclipped = (locator: typeof brand) =>
      locator.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight);
    assert.equal((await brand.innerText()).trim(), 'AwesomeBot');
    assert.ok(await unclipped(brand), 'the product name is not cut');
    assert.equal(await label.isVisible(), false, "no 'No server selected' on a phone");

    const guildId = harness().product.sandbox?.world.demo.guildId ?? '';
    await page.goto(`/server/${guildId}/welcome`);
    await page.getByRole('heading', { name: 'Welcome System', level: 1 }).waitFor();
    await label.filter({ hasText: 'Sandbox Community' }).waitFor();
    assert.ok(await unclipped(label), 'the server name is not cut');
    assert.equal(await brand.isVisible(), false);
  });
});
