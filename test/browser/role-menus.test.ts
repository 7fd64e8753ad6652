// Role menus on the roles page in a real browser: build a button menu in the dialog (channel, title,
// one option with role and label), see the preview, post it; the bot's message carries the button.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { waitFor } from '../helpers/wait';
import { browserSuite, pick, toastWith } from './helpers';

const harness = browserSuite();

describe('Role menus', () => {
  test('build a menu in the dialog and post it', async () => {
    const world = harness().product.sandbox?.world;
    assert.ok(world);
    const { guildId, channels } = world.demo;
    const page = await harness().openSignedIn(`/server/${guildId}/roles`);
    await page.getByRole('heading', { name: 'Role menus', exact: true }).waitFor();
    await page.getByText('No role menus yet').waitFor();
    await page.getByRole('button', { name: 'New role menu' }).click();
    const dialog = page.getByRole('dialog', { name: 'New role menu' });
    await pick(page, 'Channel', 'gener', '#general');
    await dialog.getByLabel('Title', { exact: true }).fill('Pick your side');
    await pick(page, 'Role 1', 'Memb', '@Member');
    await dialog.getByLabel('Label 1', { exact: true }).fill('Members');
    await dialog.getByLabel('Components preview').getByText('Members').waitFor();
    await dialog.getByRole('button', { name: 'Post' }).click();
    await toastWith(page, 'Role menu posted');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('list', { name: 'Role menus' }).getByText('Pick your side').waitFor();
    await waitFor(
      () => world.messages.list(channels.general).some((message) => JSON.stringify(message.components ?? []).includes('"label":"Members"')),
      5000,
      'the menu message with its button',
    );
  });
});
