// Lazy routes load without a waterfall (issue 13): when a route starts, its chunk and every chunk
// that chunk imports are asked for at once, as <link rel="modulepreload">, instead of each level
// of imports waiting for the one above it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readWebBuild, type WebBuild } from '../helpers/web-build';
import { browserSuite } from './helpers';

const harness = browserSuite();

/** The URL paths the page has asked for ahead of their import: its module scripts and modulepreload links. */
const loadedUpFront = (page: Page) =>
  page.$$eval('link[rel="modulepreload"], script[type="module"][src]', (elements) =>
    elements.map((element) => new URL(element instanceof HTMLLinkElement ? element.href : (element as HTMLScriptElement).src).pathname),
  );

describe('preloaded route chunks', () => {
  let build: WebBuild;
  before(async () => {
    build = await readWebBuild();
  });

  /** The chunk a page is in and every chunk it imports, less what the entry loads anyway. */
  const graphOf = (page: string) => {
    const entry = build.staticGraph(build.outputOf('web/main.tsx'));
    return [...build.staticGraph(build.outputOf(page))].filter((file) => !entry.has(file)).map(build.publicPath);
  };

  test('/login: the entry, the login page and everything they import, from the start', async () => {
    const page = await harness().open('/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    const upFront = await loadedUpFront(page);
    const missing = [...build.routeFiles(['web/pages/login.tsx'])].map(build.publicPath).filter((file) => file.endsWith('.js') && !upFront.includes(file));
    assert.deepEqual(missing, []);
  });

  test('signed in: the shell, the page opened, and a page reached through the sidebar', async () => {
    const page = await harness().openSignedIn('/dashboard');
    await page.getByRole('link', { name: 'My Servers' }).first().click();
    await page.getByRole('heading', { name: 'My Servers', level: 1 }).waitFor();
    const upFront = await loadedUpFront(page);
    for (const entryPoint of ['web/signed-in-routes.tsx', 'web/pages/dashboard.tsx', 'web/pages/servers.tsx']) {
      const missing = graphOf(entryPoint).filter((chunk) => !upFront.includes(chunk));
      assert.deepEqual(missing, [], entryPoint);
    }
  });
});
