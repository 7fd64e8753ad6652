// The server screens against the sandbox's demo world: the seeded demo admin manages
// 'Sandbox Community' (bot in) and owns "Demo Admin's Workshop" (no bot).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSuite, signInWithDemo } from './helpers';

const harness = browserSuite();

/** The seeded demo admin's identity from the running sandbox. */
function demoAdmin() {
  const sandbox = harness().product.sandbox;
  if (!sandbox) throw new Error('the product did not start in sandbox mode');
  return { id: sandbox.world.demo.adminUserId, username: 'demo_admin' };
}

describe('server list', () => {
  test('/servers shows each managed server with its bot badge, Manage or Add Bot', async () => {
    const page = await harness().open('/login');
    await signInWithDemo(page, demoAdmin());
    await page.goto('/servers');
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
