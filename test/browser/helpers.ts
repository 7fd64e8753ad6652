// Browser-test harness: the whole product in sandbox mode on ephemeral ports, Debian's
// Chromium driven by playwright-core, one fresh browser context (cookies) per page.
// Needs the web bundle: `npm test` runs `npm run build` first.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startProduct, type Product } from '../../src/main';
import { DEMO_LOGIN_DEFAULTS } from '../../src/shared/demo-login';
import { TEST_RATE_LIMITS, TEST_SANDBOX_RATE_LIMITS, testConfig } from '../helpers/product';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Debian's Chromium; never downloaded by the tests. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The desktop and phone viewports the tests use. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 740 },
} as const;

/** A running product plus a browser. */
export interface Harness {
  product: Product;
  browser: Browser;
  /** The dashboard's public origin, e.g. http://localhost:43123 */
  url: string;
  /** Opens a page in a new context (no cookies shared with other pages) at `path`. */
  open(path: string, viewport?: { width: number; height: number }): Promise<Page>;
  /**
   * Opens `path` in a new context already signed in (the demo admin unless `identity` says who):
   * the mock login is called from the context's own request client, so its cookie is the page's.
   * One page load instead of four; test/browser/auth.test.ts and shell.test.ts walk the sign-in pages themselves.
   */
  openSignedIn(path: string, options?: { viewport?: { width: number; height: number }; identity?: DemoIdentity }): Promise<Page>;
  /** Content-Security-Policy violations reported by any page so far (the suite fails on any). */
  cspViolations: string[];
  /** How many contexts were opened so far: a mark for closeOpenedSince. */
  openedCount(): number;
  /** Closes the contexts opened after `mark` (a test's pages once it ends: an idle page still polls and renders). */
  closeOpenedSince(mark: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the product (as `testConfig` has it: sandbox mode, in-memory SQLite, the music library in a
 * folder of its own, the demo server empty) and Chromium; `env` adds or overrides variables.
 */
export async function startHarness(env: NodeJS.ProcessEnv = {}): Promise<Harness> {
  const webRoot = path.join(repoRoot, 'dist/web');
  if (!existsSync(path.join(webRoot, 'index.html'))) throw new Error('dist/web is missing: run `npm run build` first');
  const config = testConfig(env);
  const musicDir = config.music.dir;
  // Signing in through the API is quick: a file can sign in more often than a person would.
  const product = await startProduct(config, { webRoot, rateLimits: TEST_RATE_LIMITS, sandboxRateLimits: TEST_SANDBOX_RATE_LIMITS });
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  } catch (error) {
    await product.close();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  const cspViolations: string[] = [];
  // The public URL, not the loopback one: OAuth redirects back to it, and cookies must match.
  const url = product.config.publicUrl;
  /** A page in a new context (no cookies shared with other pages) that records CSP violations. */
  const newPage = async (viewport: { width: number; height: number }): Promise<Page> => {
    const context = await browser.newContext({ viewport, baseURL: url });
    contexts.push(context);
    // Chromium reports a blocked script, style or image as a console error; the event adds
    // the directive for violations it does not print.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(
          `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ` +
            `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        );
      });
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|CSP violation/i.test(text)) cspViolations.push(`${page.url()}: ${text}`);
    });
    return page;
  };
  return {
    product,
    browser,
    url,
    cspViolations,
    async open(pathname, viewport = VIEWPORTS.desktop) {
      const page = await newPage(viewport);
      await page.goto(pathname);
      return page;
    },
    async openSignedIn(pathname, { viewport = VIEWPORTS.desktop, identity } = {}) {
      const page = await newPage(viewport);
      await signInByApi(page, identity);
      await page.goto(pathname);
      return page;
    },
    openedCount: () => contexts.length,
    async closeOpenedSince(mark) {
      await Promise.allSettled(contexts.slice(mark).map((context) => context.close()));
    },
    async close() {
      await Promise.allSettled(contexts.map((context) => context.close()));
      await browser.close();
      await product.close();
      await rm(musicDir, { recursive: true, force: true });
    },
  };
}

/** Registers before/after hooks for a test file and returns a getter for the harness; `env` as startHarness takes it. */
export function browserSuite(env: NodeJS.ProcessEnv = {}): () => Harness {
  let harness: Harness | undefined;
  before(async () => {
    harness = await startHarness(env);
  });
  // Pages a test opens close when it ends; pages a `before` hook opens serve the tests that follow.
  let mark = 0;
  beforeEach(() => {
    mark = harness?.openedCount() ?? 0;
  });
  afterEach(async () => {
    await harness?.closeOpenedSince(mark);
  });
  after(async () => {
    const violations = harness?.cspViolations ?? [];
    await harness?.close();
    assert.deepEqual(violations, [], `no page broke the Content-Security-Policy:\n${violations.join('\n')}`);
  });
  return () => {
    if (!harness) throw new Error('the browser suite did not start');
    return harness;
  };
}

/** Who to sign in as; the form's prefilled demo identity when omitted. */
export interface DemoIdentity {
  username: string;
  id: string;
}

/** Signs in through the /test-auth page's mock login and waits for the dashboard. */
export async function signInWithDemo(page: Page, identity?: DemoIdentity): Promise<void> {
  await page.goto('/test-auth');
  if (identity) {
    await page.getByLabel('Username').fill(identity.username);
    await page.getByLabel('User ID (snowflake)').fill(identity.id);
  }
  // The page reports success with window.alert; accept it so the redirect can run.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Mock Login' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 10_000 });
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

/**
 * Signs the page's context in with the mock login's API (the demo admin unless `identity` says who),
 * as the /test-auth form does but without its pages, alert and redirect delay; the page is not navigated.
 */
export async function signInByApi(page: Page, identity?: DemoIdentity): Promise<void> {
  // The header a browser's same-origin fetch carries (the context's request client sends no Origin of its own).
  const headers = { 'Sec-Fetch-Site': 'same-origin' };
  const response = await page.context().request.post('/api/auth/mock-login', { data: { ...DEMO_LOGIN_DEFAULTS, ...identity }, headers });
  if (!response.ok()) throw new Error(`the mock login answered ${response.status()}: ${await response.text()}`);
}

/** Waits for a toast that shows `text`. */
export const toastWith = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();

/** Fails unless a click at the middle of `locator` lands on it: nothing (a toast, say) covers it. */
export async function assertUncovered(locator: Locator, what: string): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  const cover = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit && (hit === element || element.contains(hit)) ? null : (hit?.closest('[class]')?.className ?? 'nothing');
  });
  assert.equal(cover, null, `${what} is covered by ${cover}`);
}

/** Opens a picker by its label, searches, and chooses the option. */
export async function pick(page: Page, label: string, search: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.keyboard.type(search);
  await page.getByRole('option', { name: option }).first().click();
}

/** One axe-core finding, trimmed to what a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  targets: string[];
}

let axeSource: string | undefined;

/**
 * axe-core's browser build (the devDependency axe-core; AXE_CORE_PATH overrides the file). It is
 * evaluated through the DevTools protocol rather than added as a <script>: the page's
 * Content-Security-Policy rightly refuses inline scripts.
 */
function loadAxeSource(): string {
  if (axeSource) return axeSource;
  let file = process.env.AXE_CORE_PATH;
  try {
    file ??= createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  } catch {
    throw new Error('axe-core is not installed: `npm install --save-dev axe-core` (or set AXE_CORE_PATH to its axe.min.js)');
  }
  axeSource = readFileSync(file, 'utf8');
  return axeSource;
}

/** Runs axe-core (WCAG 2.x A/AA and best practices) on the page as it is now; returns every violation. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(loadAxeSource());
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: Array<{ id: string; impact: AxeViolation['impact']; help: string; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  });
}
