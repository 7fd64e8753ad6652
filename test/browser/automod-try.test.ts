// "Try these rules" in a real browser (issue 24, points 5 and 7): turn a rule on and edit it, its
// sentence follows the edit, then try the unsaved rules on #general by keyboard and see the message
// the rule would have caught, highlighted with what it would have done; nothing is deleted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSuite, pick } from './helpers';

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};

describe('Try these rules', () => {
  test('edit a rule, read what it will do, try it on #general and see the hit, nothing deleted', async () => {
    const { guildId, channels, plainMemberId } = world().demo;
    const sandbox = harness().product.sandbox;
    assert.ok(sandbox);
    const posted = await fetch(`${sandbox.url}/_sandbox/channels/${channels.general}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ authorId: plainMemberId, content: 'come join us at discord.gg/tryme' }),
    });
    assert.equal(posted.status, 201);
    const messageId = ((await posted.json()) as { id: string }).id;

    const page = await harness().openSignedIn(`/server/${guildId}/moderation`);
    await page.getByRole('heading', { name: 'Try these rules' }).waitFor();
    await page.getByRole('switch', { name: 'Mass mentions' }).click();
    await page.getByText('Deletes messages with more than 5 mentions of members or roles').waitFor();
    await page.getByLabel('Most mentions in one message').fill('3');
    await page
      .getByText('Deletes messages with more than 3 mentions of members or roles, or any @everyone or @here. Example: a message pinging 4 members.')
      .waitFor();
    await page.getByRole('switch', { name: 'Invite links' }).click();
    await page.getByText('Deletes messages with an invite to another Discord server. Example: “join us at discord.gg/abc123”.').waitFor();

    await pick(page, 'Channel to try them on', 'gener', '#general');
    const tryButton = page.getByRole('button', { name: 'Try these rules' });
    await tryButton.focus();
    await page.keyboard.press('Enter');
    const hit = page.locator('.try-hit', { hasText: 'come join us at discord.gg/tryme' });
    await hit.waitFor();
    assert.match(await hit.innerText(), /Invite links:\s*Delete the message/);
    await page.getByText(/^\d+ of the last \d+ messages in #general would have been acted on\.$/).waitFor();
    assert.ok(world().messages.get(messageId), 'the message is still there');
  });
});
