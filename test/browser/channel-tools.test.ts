// The Channel tools card of the Moderation page in a real browser: pick #general, purge a member's
// spam after the confirm dialog, lock and unlock the channel with its state shown, and the bot's
// missing Manage Channels said in words when slowmode is set.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PermissionFlagsBits as P } from 'discord.js';
import { waitFor } from '../helpers/wait';
import { browserSuite, pick, toastWith } from './helpers';

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};

/** Posts in a channel as a member through the sandbox's control API. */
async function say(channelId: string, authorId: string, content: string) {
  const sandbox = harness().product.sandbox;
  assert.ok(sandbox);
  const response = await fetch(`${sandbox.url}/_sandbox/channels/${channelId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorId, content }),
  });
  assert.equal(response.status, 201);
}

describe('Channel tools', () => {
  test('purge with a filter after confirming, lock and unlock with the state shown, and slowmode refused in words', async () => {
    const { guildId, channels, plainMemberId } = world().demo;
    const general = channels.general;
    await say(general, plainMemberId, 'cheap spam here');
    await say(general, plainMemberId, 'more spam here');
    await say(general, plainMemberId, 'a real question');
    const page = await harness().openSignedIn(`/server/${guildId}/moderation`);
    await page.getByRole('heading', { name: 'Channel tools' }).waitFor();
    await pick(page, 'Channel', 'gener', '#general');
    await page.getByText('Open', { exact: true }).waitFor();

    await page.getByLabel('Containing (optional)').fill('spam here');
    await page.getByRole('button', { name: 'Purge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge messages' });
    await dialog.getByText(/Delete up to 10 of the latest messages in #general/).waitFor();
    await dialog.getByRole('button', { name: 'Delete messages' }).click();
    await toastWith(page, 'Deleted 2 messages containing “spam here” in #general.');
    await dialog.waitFor({ state: 'hidden' });
    const left = world()
      .messages.list(general)
      .map((message) => message.content);
    assert.ok(left.includes('a real question'));
    assert.ok(!left.some((content) => content.includes('spam here')));

    await page.getByRole('button', { name: 'Lock channel' }).click();
    await toastWith(page, /Locked #general/);
    await page.getByText('Locked', { exact: true }).waitFor();
    const everyone = () =>
      world()
        .guilds.get(guildId)
        ?.channels.get(general)
        ?.overwrites.find((o) => o.id === guildId);
    assert.equal(everyone()?.deny, P.SendMessages);
    await page.getByRole('button', { name: 'Unlock channel' }).click();
    await toastWith(page, 'Unlocked #general.');
    await page.getByText('Open', { exact: true }).waitFor();
    await waitFor(() => everyone() === undefined, 5000, 'the overwrite lock made to be removed');

    await page.getByLabel('Slowmode (seconds)').fill('30');
    await page.getByRole('button', { name: 'Set slowmode' }).click();
    await toastWith(page, 'AwesomeBot needs the Manage Channels permission in #general to set slowmode.');
  });
});
