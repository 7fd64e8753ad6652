// Lazy routes load without a waterfall (issue 13): when a route starts, its chunk and every chunk
// that chunk imports are asked for at once, as <link rel="modulepreload">, instead of each level
// of imports waiting for the one above it. A deep link's page names its route's chunks (and first
// data) itself, and the sidebar's links fetch their page's chunk as soon as they are pointed at.
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

  /** The URLs a served page preloads (modulepreload and fetch preloads). */
  const preloadsOf = (html: string) => [...html.matchAll(/<link rel="(?:modulepreload|preload)" href="([^"]+)"/g)].map((match) => match[1] ?? '');

  test("a deep link's page preloads its route's chunks and first data for a signed-in visitor, and not for a visitor", async () => {
    const page = await harness().openSignedIn('/servers');
    const servers = (await (await page.context().request.get('/api/auth/servers')).json()) as { id: string; hasBot: boolean }[];
    const serverId = servers.find((server) => server.hasBot)?.id ?? '';
    const signedIn = preloadsOf(await (await page.context().request.get(`/server/${serverId}/leveling`)).text());
    for (const entryPoint of ['web/signed-in-routes.tsx', 'web/features/leveling/page.tsx']) {
      assert.deepEqual(
        graphOf(entryPoint).filter((chunk) => !signedIn.includes(chunk)),
        [],
        entryPoint,
      );
    }
    assert.ok(signedIn.includes('/api/auth/servers') && signedIn.includes(`/api/servers/${serverId}/settings`), signedIn.join(' '));
    // A visitor is shown the login page there: its chunks are the entry's, nothing of the signed-in app.
    const visitorContext = await harness().browser.newContext();
    const visitor = preloadsOf(await (await visitorContext.request.get(`${harness().url}/server/${serverId}/leveling`)).text());
    await visitorContext.close();
    const entry = [...build.staticGraph(build.outputOf('web/main.tsx'))].map(build.publicPath);
    assert.deepEqual(
      visitor.filter((url) => !entry.includes(url) && url !== '/api/auth/me'),
      [],
    );
  });

  test("pointing at or focusing a sidebar link fetches its page's chunk before the click", async () => {
    const page = await harness().openSignedIn('/servers');
    const servers = (await (await page.context().request.get('/api/auth/servers')).json()) as { id: string; hasBot: boolean }[];
    const serverId = servers.find((server) => server.hasBot)?.id ?? '';
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`/server/${serverId}/dashboard`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Server' });
    for (const [label, entryPoint, move] of [
      ['Leveling System', 'web/features/leveling/page.tsx', 'hover'],
      ['Economy & Shop', 'web/features/economy/page.tsx', 'focus'],
    ] as const) {
      const chunk = build.publicPath(build.outputOf(entryPoint));
      assert.ok(!requested.includes(chunk), `${chunk} was fetched before ${label} was pointed at`);
      const fetched = page.waitForRequest((request) => new URL(request.url()).pathname === chunk);
      await sidebar.getByRole('link', { name: label })[move]();
      await fetched;
      assert.equal(new URL(page.url()).pathname, `/server/${serverId}/dashboard`, 'still on the server dashboard');
    }
    await sidebar.getByRole('link', { name: 'Leveling System' }).click();
    await page.getByRole('heading', { name: 'Leveling System', level: 1 }).waitFor();
  });
});
