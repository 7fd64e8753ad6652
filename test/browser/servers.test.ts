// The server screens against the sandbox's demo world: the seeded demo admin manages
// 'Sandbox Community' (bot in) and owns "Demo Admin's Workshop" (no bot). Also how the screens
// lay out: card widths, the skeleton, one invite action, the lists' order, the phone overview.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSuite, VIEWPORTS } from './helpers';

const harness = browserSuite();

/** The seeded demo admin's identity from the running sandbox. */
function demoAdmin() {
  const sandbox = harness().product.sandbox;
  if (!sandbox) throw new Error('the product did not start in sandbox mode');
  return { id: sandbox.world.demo.adminUserId, username: 'demo_admin' };
}

describe('server list', () => {
  test('/servers shows each managed server with its bot badge, Manage or Add Bot', async () => {
    const page = await harness().openSignedIn('/servers', { identity: demoAdmin() });
    await page.getByText('Welcome back, demo_admin!', { exact: false }).waitFor();

    const cards = page.getByTestId('server-card');
    await cards.first().waitFor();
    const community = cards.filter({ hasText: 'Sandbox Community' });
    const workshop = cards.filter({ hasText: "Demo Admin's Workshop" });
    assert.equal(await community.count(), 1);
    assert.equal(await workshop.count(), 1);

    assert.ok(await community.getByText('Bot Active').isVisible());
    assert.ok(await community.getByText('Administrator').isVisible());
    assert.ok(await community.getByText(`Server ID: ${harness().product.sandbox?.world.demo.guildId}`).isVisible());
    assert.equal(await community.getByRole('link', { name: 'Add Bot' }).count(), 0);

    assert.ok(await workshop.getByText('Bot Missing').isVisible());
    assert.equal(await workshop.getByRole('link', { name: 'Manage' }).count(), 0, 'no Manage without the bot');
    const invite = await workshop.getByRole('link', { name: 'Add Bot' }).getAttribute('href');
    assert.ok(invite, 'Add Bot has an invite link');
    const inviteUrl = new URL(invite);
    assert.equal(inviteUrl.searchParams.get('permissions'), '8');
    assert.equal(inviteUrl.searchParams.get('scope'), 'bot applications.commands');
    assert.equal(inviteUrl.searchParams.get('guild_id'), harness().product.sandbox?.world.demo.secondGuildId);
    assert.equal(await workshop.getByRole('link', { name: 'Add Bot' }).getAttribute('target'), '_blank');

    await community.getByRole('link', { name: 'Manage' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/dashboard') && url.pathname.startsWith('/server/'));
    await page.getByTestId('server-label').filter({ hasText: 'Sandbox Community' }).waitFor();
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
    assert.ok(await page.getByRole('link', { name: 'Welcome System' }).first().isVisible(), 'server-mode sidebar');
  });
});

describe('server screens', () => {
  test('at 1280 px /servers cards share the row and keep names on one line; the skeleton fills whole rows', async () => {
    const page = await harness().openSignedIn('/dashboard', { identity: demoAdmin() });
    // Hold the server list back so the skeleton stays long enough to measure.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/servers', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/servers');
    const skeleton = page.getByLabel('Loading servers');
    await skeleton.waitFor();
    const rows = await skeleton.evaluate((grid) => {
      const tops = [...grid.children].map((card) => Math.round(card.getBoundingClientRect().top));
      return [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
    });
    assert.ok(
      rows.every((count) => count === rows[0]),
      `every skeleton row is full: ${JSON.stringify(rows)}`,
    );
    release();

    const cards = page.getByTestId('server-card');
    await cards.nth(1).waitFor();
    const boxes = await cards.evaluateAll((elements) =>
      elements.map((card) => {
        const title = card.querySelector('.card-title');
        const line = title ? parseFloat(getComputedStyle(title).lineHeight) : 0;
        return {
          width: card.getBoundingClientRect().width,
          row: card.parentElement?.getBoundingClientRect().width ?? 0,
          lines: title ? Math.round(title.getBoundingClientRect().height / line) : 0,
        };
      }),
    );
    for (const box of boxes) {
      assert.ok(box.width >= 400, `a card is ${box.width} px wide`);
      assert.equal(box.lines, 1, 'the name fits on one line');
    }
    const [first] = boxes;
    assert.ok(first && first.width * 2 >= first.row - 32, 'two cards fill the row');
  });

  test("one invite action everywhere: 'Add Bot' in the primary style, in a new tab", async () => {
    const page = await harness().openSignedIn('/servers', { identity: demoAdmin() });
    const seen = new Set<string>();
    for (const [pathname, heading] of [
      ['/servers', 'My Servers'],
      ['/server-management', 'Server Management'],
      ['/add-bot', 'Add Bot'],
    ] as const) {
      await page.goto(pathname);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      const invites = page.locator('a[href*="/oauth2/authorize"]');
      await invites.first().waitFor();
      for (const invite of await invites.all()) {
        const look = await invite.evaluate((link) => ({
          text: (link.textContent ?? '').trim(),
          primary: link.classList.contains('btn-primary'),
          colour: getComputedStyle(link).backgroundColor,
          target: link.getAttribute('target'),
        }));
        assert.equal(look.text, 'Add Bot', `${pathname}: the invite reads 'Add Bot'`);
        assert.ok(look.primary, `${pathname}: the invite is a primary button`);
        assert.equal(look.target, '_blank');
        seen.add(look.colour);
      }
    }
    assert.equal(seen.size, 1, `one colour for every invite: ${[...seen].join(', ')}`);
  });

  test('Server Management and Add Bot list the servers in the same order; Owner and the avatar show', async () => {
    const page = await harness().openSignedIn('/server-management', { identity: demoAdmin() });
    const orders: string[][] = [];
    for (const [pathname, heading] of [
      ['/server-management', 'Server Management'],
      ['/add-bot', 'Add Bot'],
    ] as const) {
      await page.goto(pathname);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByTestId('server-row').first().waitFor();
      orders.push(
        await page
          .locator('.card-title')
          .filter({ hasText: /^(Servers with the bot|Available Servers)$/ })
          .allTextContents(),
      );
      const workshop = page.getByTestId('server-row').filter({ hasText: "Demo Admin's Workshop" });
      assert.ok(await workshop.getByText('Owner', { exact: true }).isVisible(), `${pathname}: Owner on the admin's own server`);
    }
    assert.deepEqual(orders, [
      ['Servers with the bot', 'Available Servers'],
      ['Servers with the bot', 'Available Servers'],
    ]);
    const avatar = page.locator('.user-button .avatar img');
    await avatar.waitFor();
    assert.ok(await avatar.evaluate((image) => (image as HTMLImageElement).naturalWidth > 0), 'the demo admin has an avatar image');
  });

  test('at 375 px the overview card shows the whole server name and nothing overlaps its Dashboard button', async () => {
    const page = await harness().openSignedIn('/dashboard', { viewport: VIEWPORTS.mobile, identity: demoAdmin() });
    const card = page.getByTestId('quick-card').filter({ hasText: 'Sandbox Community' });
    await card.waitFor();
    const layout = await card.evaluate((element) => {
      const title = element.querySelector('h3');
      const badge = element.querySelector('.badge');
      const button = [...element.querySelectorAll('a')].find((link) => link.textContent?.trim() === 'Dashboard');
      // Plain values only: named helpers inside an evaluated function do not survive the TypeScript loader.
      return {
        clipped: title ? title.scrollWidth > title.clientWidth || title.scrollHeight > title.clientHeight : true,
        badge: badge?.getBoundingClientRect().toJSON() as DOMRect | undefined,
        button: button?.getBoundingClientRect().toJSON() as DOMRect | undefined,
      };
    });
    assert.equal(layout.clipped, false, 'the name is not cut');
    const { badge, button } = layout;
    assert.ok(badge && button);
    const overlap = badge.left < button.right && button.left < badge.right && badge.top < button.bottom && button.top < badge.bottom;
    assert.equal(overlap, false, "'Economy Active' does not overlap the Dashboard button");
  });
});
