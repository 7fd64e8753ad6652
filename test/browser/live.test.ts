// Live updates in a real browser: with a server's page open, what happens in Discord shows on it
// without a reload, through the stream (the page's stream open, no poll due yet): the overview's
// member count when someone joins, the moderation log when a moderator bans in Discord, an
// announcement's state once the bot sent it. The time from the sandbox to the element is printed;
// the "within a second" is measured by scripts/bench/live-latency.ts, not timed here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { waitFor } from '../helpers/wait';
import { LIVE_POLL_MS } from '../../src/shared/live';
import { browserSuite } from './helpers';

const harness = browserSuite();
/** Half the polling interval: a change shown sooner, on a page whose stream is open, came through the stream. */
const LIVE_BOUND_MS = LIVE_POLL_MS / 2;

const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};
const guildId = () => world().demo.guildId;

/** Opens a page of the demo guild signed in, once its live stream is open (the barrier before acting). */
async function openLive(path: string, heading: string): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.locator('html[data-live="open"]').waitFor({ timeout: 5000 });
  return page;
}

/** Runs `act` in the sandbox, then waits for `shown` (within LIVE_BOUND_MS); answers the ms from the act to it. */
async function shownWithin(act: () => unknown, shown: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await act();
  await shown();
  const elapsed = performance.now() - started;
  assert.ok(elapsed < LIVE_BOUND_MS, `shown after ${Math.round(elapsed)} ms`);
  return elapsed;
}

describe('live updates on the dashboard', () => {
  test('the overview: a member joining in Discord raises the member count without a reload', async (t) => {
    const { product } = harness();
    const page = await openLive('dashboard', product.client.guilds.cache.get(guildId())?.name ?? '');
    const value = page.locator('.stat-card', { hasText: 'Members' }).locator('.stat-value');
    const before = Number((await value.innerText()).replace(/\D/g, ''));
    assert.ok(before > 0);
    let loads = 0;
    page.on('load', () => (loads += 1));
    const elapsed = await shownWithin(
      () => world().addMember(guildId(), { username: 'live_joiner' }),
      () =>
        page.waitForFunction((expected) => document.querySelector('.stat-card .stat-value')?.textContent?.replace(/\D/g, '') === expected, String(before + 1), {
          timeout: LIVE_BOUND_MS,
        }) as Promise<unknown> as Promise<void>,
    );
    assert.equal(loads, 0, 'the page was not reloaded');
    t.diagnostic(`member count shown ${Math.round(elapsed)} ms after the join`);
  });

  test('the moderation log: a ban in Discord appears as a case without a reload', async (t) => {
    const { product } = harness();
    const moderator = world().addMember(guildId(), { username: 'live_moderator', roleIds: [world().demo.roles.moderator] });
    const target = world().addMember(guildId(), { username: 'live_raider' });
    await waitFor(() => product.client.guilds.cache.get(guildId())?.members.cache.has(target.userId), 5000, 'the bot to see the members');
    const page = await openLive('moderation', 'Moderation');
    const sandbox = product.sandbox;
    assert.ok(sandbox);
    const elapsed = await shownWithin(
      async () => {
        const response = await fetch(`${sandbox.url}/_sandbox/guilds/${guildId()}/moderation`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'ban', actorId: moderator.userId, targetId: target.userId, reason: 'Raid account' }),
        });
        assert.ok(response.ok);
      },
      () => page.getByText('live_raider').first().waitFor({ timeout: LIVE_BOUND_MS }),
    );
    t.diagnostic(`case shown ${Math.round(elapsed)} ms after the ban`);
  });

  test('when the stream keeps failing, the pages poll: a join still shows, and nothing on screen says so', async (t) => {
    const page = await harness().openSignedIn('/dashboard');
    // A proxy in the way that answers the stream with an error.
    await page.route('**/api/servers/*/events', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }));
    await page.goto(`/server/${guildId()}/dashboard`);
    await page.locator('html[data-live="polling"]').waitFor({ timeout: 5000 });
    const value = page.locator('.stat-card', { hasText: 'Members' }).locator('.stat-value');
    await value.waitFor();
    const before = Number((await value.innerText()).replace(/\D/g, ''));
    const started = performance.now();
    world().addMember(guildId(), { username: 'live_polled' });
    await page.waitForFunction(
      (expected) => document.querySelector('.stat-card .stat-value')?.textContent?.replace(/\D/g, '') === expected,
      String(before + 1),
      { timeout: LIVE_POLL_MS + 2000 },
    );
    t.diagnostic(`shown by polling ${Math.round(performance.now() - started)} ms after the join`);
    assert.equal(await page.getByRole('alert').count(), 0);
  });

  test('without EventSource the pages poll, and nothing on screen says so', async () => {
    const { product } = harness();
    const page = await harness().openSignedIn('/dashboard');
    await page.addInitScript(() => Reflect.deleteProperty(window, 'EventSource'));
    await page.goto(`/server/${guildId()}/dashboard`);
    await page.getByRole('heading', { name: product.client.guilds.cache.get(guildId())?.name ?? '', level: 1 }).waitFor();
    await page.locator('html[data-live="polling"]').waitFor({ timeout: 5000 });
    await page.locator('.stat-card .stat-value').first().waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
  });
});
