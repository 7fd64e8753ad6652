// The Raid protection card of the Moderation page in a real browser: raid mode started from the
// card (after its confirm dialog) shows what it did, and "End raid mode" ends it, the server's
// verification level put back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PermissionFlagsBits as P } from 'discord.js';
import { waitFor } from '../helpers/wait';
import { browserSuite, toastWith } from './helpers';

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};

describe('Raid protection', () => {
  test('the card shows raid mode and End raid mode ends it', async () => {
    const { guildId, roles } = world().demo;
    const guild = world().requireGuild(guildId);
    const botRole = guild.roles.get(roles.bot);
    assert.ok(botRole);
    world().structure.updateRole(guildId, botRole, { permissions: botRole.permissions | P.ManageGuild });
    const before = guild.verificationLevel;
    await waitFor(
      () => harness().product.client.guilds.cache.get(guildId)?.members.me?.permissions.has(P.ManageGuild) || undefined,
      5000,
      'the bot to hold Manage Server',
    );

    const page = await harness().openSignedIn(`/server/${guildId}/moderation`);
    await page.getByRole('heading', { name: 'Raid protection' }).waitFor();
    const summary = page.getByTestId('raid-summary');
    await summary.filter({ hasText: 'No raid. The raid rule is off.' }).waitFor();

    await page.getByRole('button', { name: 'Start raid mode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start raid mode' });
    await dialog.getByRole('button', { name: 'Start raid mode' }).click();
    await toastWith(page, 'Raid mode is on: verification raised to High, invites paused.');
    await summary.filter({ hasText: /^Raid mode since \d{1,2}:\d{2}.* — verification raised to High, invites paused$/ }).waitFor();
    assert.equal(guild.verificationLevel, 3);
    assert.ok(guild.incidents?.invitesDisabledUntil);

    await page.getByRole('button', { name: 'End raid mode' }).click();
    await toastWith(page, /Raid mode is off: verification back to .*, invites resumed\./);
    await summary.filter({ hasText: 'No raid. The raid rule is off.' }).waitFor();
    assert.equal(guild.verificationLevel, before);
    assert.equal(guild.incidents?.invitesDisabledUntil, null);
  });
});
