// A member's moderation page in a real browser (issue 24, point 1): open it from the moderation
// log, pardon a warning through the keyboard-accessible dialog, and see the warning ladder's next
// step change in words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { moderate } from '../../src/features/moderation/actions';
import { writeSettings } from '../../src/features/settings/public';
import { browserSuite, runAxe, toastWith } from './helpers';

const harness = browserSuite();

describe('Member page', () => {
  test('opened from the log, a pardon takes the warning out of the ladder and the next step says so', async () => {
    const { product } = harness();
    const world = product.sandbox?.world;
    assert.ok(world);
    const { guildId, adminUserId, plainMemberId } = world.demo;
    const guild = product.services.gateway.guild(guildId);
    assert.ok(guild);
    await writeSettings(
      product.services,
      guild,
      { escalation: [{ warnings: 2, action: 'timeout', duration: '1h' }] },
      { userId: adminUserId, name: 'test' },
      { kind: 'update' },
    );
    const warning = await moderate(
      product.services,
      guildId,
      { action: 'warn', targetId: plainMemberId, reason: 'Off topic in #general' },
      { userId: adminUserId, name: 'Demo Admin', source: 'dashboard' },
    );

    const page = await harness().openSignedIn(`/server/${guildId}/moderation`);
    const row = page.getByRole('listitem', { name: `Case #${warning.caseNumber}` });
    await row.getByRole('link', { name: /their record/ }).click();
    await page.waitForURL(`**/server/${guildId}/moderation/members/${plainMemberId}`);
    const ladder = page.getByRole('status', { name: 'Warning ladder' });
    await ladder.getByText('Next warning: 1 hour timeout').waitFor();
    const serious = (await runAxe(page)).filter((violation) => violation.impact === 'critical' || violation.impact === 'serious');
    assert.deepEqual(
      serious.map((violation) => `${violation.id}: ${violation.targets.join(' | ')}`),
      [],
    );

    const card = page.getByRole('listitem', { name: `Case #${warning.caseNumber}` });
    await card.getByRole('button', { name: 'Pardon' }).click();
    const dialog = page.getByRole('dialog', { name: `Pardon warning #${warning.caseNumber}` });
    // An empty reason is refused under the field, before any request.
    await dialog.getByRole('button', { name: 'Pardon' }).click();
    await dialog.getByText('Say why the warning is pardoned.').waitFor();
    await dialog.getByLabel('Why').fill('A misunderstanding');
    await dialog.getByRole('button', { name: 'Pardon' }).click();
    await toastWith(page, 'Warning pardoned');
    await dialog.waitFor({ state: 'hidden' });
    await ladder.getByText('Next warning: no step. At 2 active warnings: 1 hour timeout').waitFor();
    await card.getByText('Pardoned', { exact: true }).waitFor();
    assert.equal(await card.getByRole('button', { name: 'Pardon' }).count(), 0);
  });
});
