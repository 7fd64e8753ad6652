// The dashboard shell in a real browser: the login page, the 404 page and the mobile drawer.
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

  test('an unknown path shows the login page, and Demo Login leads to /test-auth', async () => {
    const page = await harness().open('/no/such/page');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/no/such/page');
    await page.getByRole('link', { name: 'Demo Login' }).click();
    await page.getByRole('heading', { name: 'Authentication Test' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/test-auth');
  });

  test('a signed-in-only path such as /servers shows the login page', async () => {
    const page = await harness().open('/servers');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
  });
});

describe('signed in', () => {
  test('an unknown path shows Page Not Found inside the layout', async () => {
    const page = await harness().open('/login');
    await signInWithDemo(page);
    await page.goto('/definitely/not/a/page');
    await page.getByRole('heading', { name: 'Page Not Found', level: 1 }).waitFor();
    assert.ok(await page.getByRole('link', { name: /Dashboard: my servers/ }).isVisible(), 'header logo');
  });

  test('the user menu shows name#tag, Settings follows the server route, and Logout returns to /login', async () => {
    const page = await harness().open('/login');
    await signInWithDemo(page);
    const guildId = harness().product.sandbox?.world.demo.guildId ?? '';
    await page.goto(`/server/${guildId}/dashboard`);
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
    const laptop = await harness().open('/login');
    await signInWithDemo(laptop);
    const phone = await harness().open('/login', VIEWPORTS.mobile);
    await signInWithDemo(phone);

    await laptop.getByRole('button', { name: /Account menu for demo_admin/ }).click();
    await laptop.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await laptop.waitForURL((url) => url.pathname === '/login');
    await laptop.getByRole('button', { name: 'Continue with Discord' }).waitFor();

    await phone.reload();
    await phone.getByRole('button', { name: 'Continue with Discord' }).waitFor();
  });

  test('at 375 px the sidebar is a drawer: menu button opens it; Escape, the close button and the overlay close it', async () => {
    const page = await harness().open('/login', VIEWPORTS.mobile);
    await signInWithDemo(page);
    await page.goto('/servers');
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
