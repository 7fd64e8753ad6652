// Every page of the spec in a real browser, at 1280 and 375 px, in the light and the dark theme:
// its h1 and its own tab title, no sideways scrolling, no tab stop on the Online pill or a chart,
// and axe-core with no critical or serious violation. Then the keyboard: a visible focus ring where
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

/** A page of the spec: where it is, its h1, its tab title. */
interface PageCase {
  path: () => string;
  heading: string;
  title: string;
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
];

const LOGIN_PAGE: PageCase = { path: () => '/login', heading: PRODUCT, title: `Sign in · ${PRODUCT}` };

const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** Violations that fail the suite: critical and serious. Moderate and minor are reported only. */
const blocking = (violation: AxeViolation) => violation.impact === 'critical' || violation.impact === 'serious';

/** One line per violation for a failure message or a diagnostic. */
const describeViolations = (violations: AxeViolation[]) =>
  violations.map((violation) => `${violation.impact} ${violation.id} (${violation.help}): ${violation.targets.slice(0, 3).join(' | ')}`);

/** Waits until the page has stopped loading: its h1 shows and no skeleton or busy region is left. */
async function settle(page: Page, heading: string): Promise<void> {
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
  await page.waitForFunction((title) => document.title === title, pageCase.title, { timeout: 5000 }).catch(() => undefined);
  assert.equal(await page.title(), pageCase.title, `${label} ${pathname}: tab title`);

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
          assert.deepEqual(failures, [], 'no critical or serious axe-core violation');
        });
      }

      test('signed out: /login in both themes passes axe-core', async (t) => {
        const visitor = await harness().open('/login', viewport);
        const failures: string[] = [];
        for (const theme of THEMES) {
          await visitor.emulateMedia({ colorScheme: theme satisfies Theme, reducedMotion: 'reduce' });
          const violations = await checkPage(t, visitor, LOGIN_PAGE, `${viewportName}-${theme}`, false);
          failures.push(...describeViolations(violations.filter(blocking)));
        }
        assert.deepEqual(failures, [], 'no critical or serious axe-core violation');
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
