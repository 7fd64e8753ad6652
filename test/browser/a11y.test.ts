// Every page of the spec in a real browser, at 1280 and 375 px, in the light and the dark theme:
// its h1 and its own tab title, no sideways scrolling, no tab stop on the Online pill or a chart,
// and axe-core with no violation above minor (critical, serious or moderate: headings in order too). Then the keyboard: a visible focus ring where
// a review found none, and focus on the new page's h1 after each kind of navigation.
// One signed-in page serves every visit of a viewport, so the 60 page checks stay quick.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { browserSuite, runAxe, signInByApi, VIEWPORTS, type AxeViolation } from './helpers';

const harness = browserSuite();
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';
const PRODUCT = 'AwesomeBot Dashboard';
const SERVER = 'Sandbox Community';
/** Set A11Y_SHOTS=/some/dir to keep a full-page PNG of every visit. */
const SHOTS = process.env.A11Y_SHOTS;

/** A page of the spec: where it is, its h1, its tab title (a pattern where it holds a member's name). */
interface PageCase {
  path: () => string;
  heading: string | RegExp;
  title: string | RegExp;
}

const serverPage = (slug: string, heading: string, name = heading): PageCase => ({
  path: () => `/server/${guildId()}/${slug}`,
  heading,
  title: `${name} · ${SERVER} · ${PRODUCT}`,
});

/** The signed-in pages: the global ones, then each page of the demo server (spec section 2). */
const SIGNED_IN_PAGES: PageCase[] = [
  { path: () => '/dashboard', heading: 'Dashboard', title: `Dashboard · ${PRODUCT}` },
  { path: () => '/servers', heading: 'My Servers', title: `My Servers · ${PRODUCT}` },
  { path: () => '/server-management', heading: 'Server Management', title: `Server Management · ${PRODUCT}` },
  { path: () => '/add-bot', heading: 'Add Bot', title: `Add Bot · ${PRODUCT}` },
  serverPage('dashboard', SERVER, 'Dashboard'),
  serverPage('welcome', 'Welcome System'),
  serverPage('rules', 'Rule Verification'),
  serverPage('roles', 'Reaction Roles'),
  serverPage('leveling', 'Leveling System'),
  serverPage('economy', 'Economy & Shop'),
  serverPage('inventory', 'User Inventory'),
  serverPage('announcements', 'Announcements'),
  serverPage('moderation', 'Moderation'),
  serverPage('music', 'Music'),
  serverPage('settings', 'Bot Settings'),
  serverPage('transactions', 'Transactions'),
  // A member's moderation record, the signed-in test page, and the two screens for a wrong address.
  {
    path: () => `/server/${guildId()}/moderation/members/${harness().product.sandbox?.world.demo.plainMemberId ?? ''}`,
    // Their name, once the record has loaded (the page says "Member" until then).
    heading: /^(?!Member$)\S/,
    title: new RegExp(`^.+ · Moderation · ${SERVER} · ${PRODUCT}$`),
  },
  { path: () => '/test-auth', heading: 'Authentication Test', title: `Authentication Test · ${PRODUCT}` },
  { path: () => '/no-such-page', heading: 'Page Not Found', title: `Page Not Found · ${PRODUCT}` },
  { path: () => '/server/123456789012345678/dashboard', heading: 'Server Not Found', title: `Server Not Found · ${PRODUCT}` },
];

const LOGIN_PAGE: PageCase = { path: () => '/login', heading: PRODUCT, title: `Sign in · ${PRODUCT}` };
/** The pages a visitor sees: the login, the test page and a ban appeal's sign-in. */
const SIGNED_OUT_PAGES: PageCase[] = [
  LOGIN_PAGE,
  { path: () => '/test-auth', heading: 'Authentication Test', title: `Authentication Test · ${PRODUCT}` },
  {
    path: () => `/appeal/${guildId()}/${harness().product.sandbox?.world.demo.plainMemberId ?? ''}`,
    heading: 'Appeal your ban',
    title: `Ban appeal · ${PRODUCT}`,
  },
];

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** Violations that fail the suite: critical, serious and moderate. Minor ones are reported only. */
const blocking = (violation: AxeViolation) => violation.impact === 'critical' || violation.impact === 'serious' || violation.impact === 'moderate';

/** One line per violation for a failure message or a diagnostic. */
const describeViolations = (violations: AxeViolation[]) =>
  violations.map((violation) => `${violation.impact} ${violation.id} (${violation.help}): ${violation.targets.slice(0, 3).join(' | ')}`);

/** Waits until the page has stopped loading: its h1 shows and no skeleton or busy region is left. */
async function settle(page: Page, heading: string | RegExp): Promise<void> {
  await page.locator('h1').filter({ hasText: heading }).first().waitFor();
  await page.waitForFunction(() => document.querySelector('.skeleton, [aria-busy="true"]') === null, undefined, { timeout: 10_000 });
}

/**
 * Opens `pathname` as the app's own links do (history and popstate, no reload), so the warm
 * caches and the loaded axe-core serve every visit; a signed-out page loads in full.
 */
async function visit(page: Page, pathname: string, signedIn: boolean): Promise<void> {
  if (!signedIn) {
    await page.goto(pathname);
    return;
  }
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
  await page.waitForURL((url) => url.pathname === pathname);
}

/** Visits `pageCase` and checks it; returns the axe violations. */
async function checkPage(t: TestContext, page: Page, pageCase: PageCase, label: string, signedIn = true): Promise<AxeViolation[]> {
  const pathname = pageCase.path();
  await visit(page, pathname, signedIn);
  await settle(page, pageCase.heading);
  // The title is set in an effect just after the page renders.
  const expected = pageCase.title;
  if (typeof expected === 'string') {
    await page.waitForFunction((title) => document.title === title, expected, { timeout: 5000 }).catch(() => undefined);
    assert.equal(await page.title(), expected, `${label} ${pathname}: tab title`);
  } else {
    await page.waitForFunction((source) => new RegExp(source).test(document.title), expected.source, { timeout: 5000 }).catch(() => undefined);
    assert.match(await page.title(), expected, `${label} ${pathname}: tab title`);
  }

  const layout = await page.evaluate(() => ({
    overflow: document.documentElement.scrollWidth - window.innerWidth,
    // A status and a chart are not controls: neither may sit in the Tab order.
    tabStops: [...document.querySelectorAll<HTMLElement>('[data-testid="online-indicator"], [data-testid="online-indicator"] *, svg, svg *')]
      .filter((element) => element.tabIndex >= 0)
      .map((element) => element.outerHTML.slice(0, 80)),
  }));
  assert.ok(layout.overflow <= 0, `${label} ${pathname}: the page scrolls sideways by ${layout.overflow} px`);
  assert.deepEqual(layout.tabStops, [], `${label} ${pathname}: no tab stop on the Online pill or a chart`);

  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${label}${pathname.replaceAll('/', '_')}.png`), fullPage: true });
  }
  const violations = await runAxe(page);
  const others = violations.filter((violation) => !blocking(violation));
  if (others.length > 0) t.diagnostic(`${label} ${pathname}: ${describeViolations(others).join('; ')}`);
  return violations;
}

describe('every page', () => {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    describe(`at ${viewport.width} px`, () => {
      let page: Page;
      before(async () => {
        page = await harness().openSignedIn('/dashboard', { viewport });
        await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      });

      for (const theme of THEMES) {
        test(`${theme}: each signed-in page has its h1 and tab title, fits, and passes axe-core`, async (t) => {
          // The app follows the system theme until the user picks one; animations off for stable colours.
          await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
          // The stylesheet's media query switches at once, <html data-theme> on the media query's
          // change event a moment later: axe must not judge the page between the two.
          await page.waitForFunction((expected) => document.documentElement.dataset.theme === expected, theme);
          const failures: string[] = [];
          for (const pageCase of SIGNED_IN_PAGES) {
            const violations = await checkPage(t, page, pageCase, `${viewportName}-${theme}`);
            failures.push(...describeViolations(violations.filter(blocking)).map((line) => `${pageCase.path()}: ${line}`));
          }
          assert.deepEqual(failures, [], 'no critical, serious or moderate axe-core violation');
        });
      }

      test('signed out: the login, test and appeal pages in both themes pass axe-core', async (t) => {
        const visitor = await harness().open('/login', viewport);
        const failures: string[] = [];
        for (const theme of THEMES) {
          await visitor.emulateMedia({ colorScheme: theme satisfies Theme, reducedMotion: 'reduce' });
          for (const pageCase of SIGNED_OUT_PAGES) {
            const violations = await checkPage(t, visitor, pageCase, `${viewportName}-${theme}`, false);
            failures.push(...describeViolations(violations.filter(blocking)).map((line) => `${pageCase.path()}: ${line}`));
          }
        }
        assert.deepEqual(failures, [], 'no critical, serious or moderate axe-core violation');
      });
    });
  }
});

/** Presses Tab until `target` has focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  const handle = await target.elementHandle();
  assert.ok(handle, 'the element to tab to exists');
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await handle.evaluate((element) => element === document.activeElement)) return;
  }
  assert.fail(`Tab never reached ${await target.evaluate((element) => element.outerHTML.slice(0, 120))}`);
}

/** The focused element's ring: focus-visible, and its outline (the ring is an outline). */
async function focusRing(target: Locator): Promise<{ visible: boolean; outline: string; width: number }> {
  return target.evaluate((element) => {
    const style = getComputedStyle(element);
    return { visible: element.matches(':focus-visible'), outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
}

/** Asserts that the keyboard-focused `target` shows a ring of at least 2 px. */
async function assertRing(target: Locator, what: string): Promise<void> {
  const ring = await focusRing(target);
  assert.ok(ring.visible, `${what} matches :focus-visible`);
  assert.notEqual(ring.outline, 'none', `${what} shows a focus outline`);
  assert.ok(ring.width >= 2, `${what}'s focus outline is at least 2 px (${ring.width})`);
}

/** Which element has focus, in words: its tag and the text a screen reader reads (aria-hidden left out). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const copy = element.cloneNode(true) as Element;
    copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    return `${element.tagName.toLowerCase()}: ${(copy.textContent ?? '').trim().slice(0, 60)}`;
  });

describe('keyboard', () => {
  test('the current sidebar item, the Manage tiles and Continue with Discord show a focus ring', async () => {
    const page = await harness().open('/login');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const discord = page.getByRole('button', { name: 'Continue with Discord' });
    await tabTo(page, discord);
    await assertRing(discord, "'Continue with Discord'");

    await signInByApi(page);
    await page.goto(`/server/${guildId()}/dashboard`);
    await settle(page, SERVER);
    const current = page.locator('aside.sidebar [aria-current="page"]');
    assert.equal((await current.textContent())?.trim(), 'Dashboard');
    await tabTo(page, current);
    await assertRing(current, 'the current sidebar item');
    const tile = page.getByRole('link', { name: /^Welcome System/ }).last();
    await tabTo(page, tile);
    await assertRing(tile, 'the Welcome System tile');
  });

  test("after a navigation focus is on the new page's h1: sidebar link, page link, user menu, drawer", async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/dashboard`);
    await settle(page, SERVER);

    // A sidebar link followed with the keyboard.
    await page.locator('aside.sidebar').getByRole('link', { name: 'Leveling System' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Leveling System', level: 1 }).waitFor();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(await focused(page), 'h1: Leveling System');

    // A link that disappears with its page: Back to Server, then a Manage tile.
    await page.getByRole('link', { name: 'Back to Server' }).click();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(await focused(page), `h1: ${SERVER}`);
    await page
      .locator('main')
      .getByRole('link', { name: /^Economy & Shop/ })
      .click();
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    assert.equal(await focused(page), 'h1: Economy & Shop');

    // A menu item: the closing menu does not pull focus back to its button.
    await page.getByRole('button', { name: /Account menu for demo_admin/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.waitForTimeout(100);
    assert.equal(await focused(page), 'h1: Dashboard');

    // The phone drawer: following a link closes it and focus goes to the page, not the menu button.
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Server Management' }).click();
    await page.getByRole('heading', { name: 'Server Management', level: 1 }).waitFor();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor({ state: 'hidden' });
    await page.waitForTimeout(100);
    assert.equal(await focused(page), 'h1: Server Management');
  });
});

describe('details', () => {
  test("the server dashboard's heading is the server's name alone; /test-auth signed in leads to the servers", async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/dashboard`);
    await settle(page, SERVER);
    const heading = page.getByRole('heading', { level: 1 });
    assert.equal((await heading.textContent())?.trim(), SERVER, 'no initials of the icon inside the h1');
    await page.getByRole('heading', { name: SERVER, exact: true, level: 1 }).waitFor();

    await page.goto('/test-auth');
    await page.getByText('You are signed in.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Go to My Servers' }).getAttribute('href'), '/servers');
    assert.equal(await page.getByRole('link', { name: 'Back to login' }).count(), 0, 'no way back to a login they are past');
  });

  test('at 375 px the save bar is one row and the moderation search shows its whole placeholder', async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/welcome`, { viewport: VIEWPORTS.mobile });
    for (const [slug, heading] of [
      ['welcome', 'Welcome System'],
      ['settings', 'Bot Settings'],
    ]) {
      await visit(page, `/server/${guildId()}/${slug}`, true);
      await settle(page, heading ?? '');
      const bar = await page.locator('.save-bar').evaluate((element) => ({
        height: element.getBoundingClientRect().height,
        tops: [...element.querySelectorAll('button')].map((button) => Math.round(button.getBoundingClientRect().top)),
        clipped: [...element.querySelectorAll('button')].filter((button) => button.scrollWidth > button.clientWidth).map((button) => button.textContent),
      }));
      assert.equal(new Set(bar.tops).size, 1, `${slug}: the save bar's buttons sit on one row (${bar.tops.join(', ')})`);
      assert.ok(bar.height <= 64, `${slug}: the save bar is ${bar.height} px high`);
      assert.deepEqual(bar.clipped, [], `${slug}: no button's words are cut`);
    }
    await visit(page, `/server/${guildId()}/moderation`, true);
    await settle(page, 'Moderation');
    const search = page.getByRole('searchbox', { name: 'Search' });
    const fit = await search.evaluate((element) => {
      const input = element as HTMLInputElement;
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return { text: 0, room: 0 };
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, room };
    });
    assert.ok(fit.text <= fit.room, `the placeholder needs ${Math.ceil(fit.text)} px and has ${Math.floor(fit.room)} px`);
  });

  test('the date and time fields show a focus ring; every enabled control of Bot Settings is reached by Tab', async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/announcements`);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const fields: Array<[string, string, string]> = [
      ['announcements', 'Announcements', 'Schedule'],
      ['settings', 'Bot Settings', 'Until (optional)'],
      ['transactions', 'Transactions', 'From'],
    ];
    for (const [slug, heading, label] of fields) {
      await visit(page, `/server/${guildId()}/${slug}`, true);
      await settle(page, heading);
      const field = page.getByLabel(label, { exact: true });
      await tabTo(page, field, 120);
      const ring = await field.evaluate((element) => ({
        outline: getComputedStyle(element).outlineStyle,
        width: parseFloat(getComputedStyle(element).outlineWidth),
      }));
      assert.notEqual(ring.outline, 'none', `${slug}: the ${label} field shows a focus outline`);
      assert.ok(ring.width >= 2, `${slug}: the ${label} field's ring is ${ring.width} px`);
    }

    await visit(page, `/server/${guildId()}/settings`, true);
    await settle(page, 'Bot Settings');
    const controls = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>('main a[href], main button, main input, main select, main textarea, main [tabindex]')].filter(
        (element) => element.tabIndex >= 0 && !(element as HTMLButtonElement).disabled && element.getClientRects().length > 0,
      );
      all.forEach((element, index) => element.setAttribute('data-tab-probe', String(index)));
      return all.map((element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40));
    });
    assert.ok(controls.includes('Grant access'), 'Grant access can be reached before a role is picked');
    await page.locator('main').focus();
    const reached = new Set<string>();
    // Until focus leaves <main>: a date field's parts (day, month, hour) take a Tab each.
    for (let i = 0; i < controls.length * 3 + 20; i++) {
      await page.keyboard.press('Tab');
      const probe = await page.evaluate(() => {
        const element = document.activeElement;
        return element?.closest('main') ? (element.getAttribute('data-tab-probe') ?? '') : null;
      });
      if (probe === null) break;
      if (probe) reached.add(probe);
    }
    assert.deepEqual(
      controls.filter((_, index) => !reached.has(String(index))),
      [],
      'every enabled control is reached by Tab',
    );
    // Reached before a role is picked, the button says what is missing.
    await page.getByRole('button', { name: 'Grant access' }).click();
    await page.getByText('Pick the role to give access to.').waitFor();
  });
});
