// The Role grants card of the server dashboard in a real browser: the empty state, then a failed
// and a waiting grant listed in words (who, which role, what for, why, when next); Retry now (by
// keyboard) gives the role and says so, Dismiss drops the other, and the card is empty again; axe
// finds nothing serious on the filled card.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signInAs } from '../helpers/product';
import { waitFor } from '../helpers/wait';
import { browserSuite, runAxe, toastWith } from './helpers';

const harness = browserSuite();

describe('Role grants on the server dashboard', () => {
  test('empty, then listed; Retry now gives the role, Dismiss drops the other; keyboard only', async () => {
    const { product } = harness();
    const world = product.sandbox?.world;
    assert.ok(world);
    const { guildId, roles, adminUserId } = world.demo;
    const page = await harness().openSignedIn(`/server/${guildId}/dashboard`);
    await page.getByRole('heading', { name: 'Role grants' }).waitFor();
    await page.getByText('Every role went through').waitFor();

    // Two members who joined while a storm raged; auto-assign gives @Member: one grant of it failed,
    // the other waits for its next try.
    const [failedMember, waitingMember] = [world.addMember(guildId, { username: 'grant_failed' }), world.addMember(guildId, { username: 'grant_waiting' })];
    await waitFor(
      () => [failedMember, waitingMember].every((member) => product.client.guilds.cache.get(guildId)?.members.cache.has(member.userId)),
      5000,
      'the members to reach the bot',
    );
    const admin = await signInAs(product, adminUserId);
    await admin.put(`/api/servers/${guildId}/settings`, { autoRoleEnabled: true, memberRoleId: roles.member }).expect(200);
    const now = product.services.clock.now();
    const grant = (userId: string, memberName: string, pending: boolean) => ({
      guildId,
      userId,
      memberName,
      roleId: roles.member,
      roleName: 'Member',
      action: 'add' as const,
      source: 'memberRole' as const,
      sourceId: null,
      reason: 'Auto-assign member role',
      attempts: pending ? 2 : 6,
      nextAttemptAt: pending ? new Date(now.getTime() + 2 * 3_600_000) : null,
      status: pending ? ('pending' as const) : ('failed' as const),
      lastError: pending
        ? 'Discord did not answer (503 Service Unavailable).'
        : 'Discord did not answer (503 Service Unavailable). The bot tried 6 times and gave up.',
      claimedUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    await product.store.models.RoleGrantRetry.create(grant(failedMember.userId, 'grant_failed', false));
    await product.store.models.RoleGrantRetry.create(grant(waitingMember.userId, 'grant_waiting', true));

    await page.reload();
    const list = page.getByRole('list', { name: 'Role grants' });
    await list.waitFor();
    const failed = list.getByRole('listitem').filter({ hasText: 'Give @Member to grant_failed' });
    const waiting = list.getByRole('listitem').filter({ hasText: 'Give @Member to grant_waiting' });
    assert.match(
      await failed.innerText(),
      /Failed[\s\S]*Auto-assigned member role[\s\S]*Tried 6 times\. Discord did not answer \(503 Service Unavailable\)\. The bot tried 6 times and gave up\./,
    );
    assert.match(
      await waiting.innerText(),
      /Waiting for Discord[\s\S]*Tried 2 times\. Discord did not answer \(503 Service Unavailable\)\. Next try in 2 hours\./,
    );
    await page.getByText('1 waiting, 1 failed.').waitFor();
    const serious = (await runAxe(page)).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    assert.deepEqual(serious, []);

    // Keyboard only: focus Retry now and press Enter.
    await failed.getByRole('button', { name: 'Retry now: Give @Member to grant_failed' }).focus();
    await page.keyboard.press('Enter');
    await toastWith(page, /Role grant done[\s\S]*Give @Member to grant_failed: done\./);
    await failed.waitFor({ state: 'detached' });
    assert.ok(world.requireGuild(guildId).members.get(failedMember.userId)?.roleIds.includes(roles.member), 'the role given');

    await waiting.getByRole('button', { name: 'Dismiss: Give @Member to grant_waiting' }).focus();
    await page.keyboard.press('Enter');
    await toastWith(page, 'Role grant dismissed');
    await page.getByText('Every role went through').waitFor();
  });
});
