// Ban appeals in a real browser (issue 24, point 6): a banned member follows the link in their
// ban's DM, signs in through the sandbox's consent page and lands back on the appeal page, writes
// and sends an appeal; anyone else signed in reads the refusal; a moderator accepts it from the
// moderation page's View Appeals, the sandbox ban is lifted and the member's page shows it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { moderate } from '../../src/features/moderation/actions';
import { APPEAL_MESSAGES } from '../../src/shared/appeals';
import { waitFor } from '../helpers/wait';
import { browserSuite, runAxe, toastWith, type AxeViolation } from './helpers';

/** axe's serious and critical findings, in one line each. */
const blocking = async (page: Parameters<typeof runAxe>[0]) =>
  (await runAxe(page))
    .filter((violation: AxeViolation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.id}: ${violation.targets.join(' | ')}`);

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};

describe('Ban appeals', () => {
  test('the banned member signs in from the DM’s link and appeals; someone else is refused; a moderator accepts and the ban is lifted', async () => {
    const { guildId, plainMemberId, adminUserId } = world().demo;
    await moderate(
      harness().product.services,
      guildId,
      { action: 'ban', targetId: plainMemberId, reason: 'Spam in #general' },
      { userId: adminUserId, name: 'demo_admin', source: 'dashboard' },
    );
    const dm = JSON.stringify(world().dms.ofUser(plainMemberId)?.messages.at(-1) ?? null);
    const link = /https?:\/\/[^\s"\\]+\/appeal\/\d+\/\d+/.exec(dm)?.[0];
    assert.ok(link, `the ban's DM carries the appeal link: ${dm}`);
    const path = new URL(link).pathname;

    // Someone else signed in is refused in words.
    const stranger = await harness().openSignedIn(path);
    await stranger.getByRole('heading', { name: 'Not your appeal' }).waitFor();
    await stranger.getByText(APPEAL_MESSAGES.notYours).waitFor();
    assert.deepEqual(await blocking(stranger), [], 'the refusal page passes axe');

    // The banned member: signed out, the page offers the sign-in, which comes back here.
    const page = await harness().open(path);
    await page.getByRole('heading', { name: 'Appeal your ban' }).waitFor();
    assert.deepEqual(await blocking(page), [], 'the signed-out appeal page passes axe');
    await page.getByRole('button', { name: 'Continue with Discord' }).click();
    await page.locator(`form:has(input[name="user_id"][value="${plainMemberId}"]) button[value="authorize"]`).click();
    await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
    await page.getByRole('heading', { name: /^Appeal your ban from / }).waitFor();
    await page.getByText(/Reason: Spam in #general/).waitFor();
    assert.deepEqual(await blocking(page), [], 'the appeal form passes axe');
    await page.getByLabel('Your appeal').fill('Too short');
    await page.getByRole('button', { name: 'Send appeal' }).click();
    await page.getByText('Write at least 20 characters.').waitFor();
    await page.getByLabel('Your appeal').fill('I posted the same link many times. I read the rules and it will not happen again.');
    await page.getByRole('button', { name: 'Send appeal' }).click();
    await toastWith(page, 'Appeal sent');
    await page.getByText(/The moderators have not decided yet\./).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Send appeal' }).count(), 0, 'one open appeal: the form is gone');

    // A moderator accepts it from the moderation page.
    const moderator = await harness().openSignedIn(`/server/${guildId}/moderation`);
    await moderator.getByRole('button', { name: 'View Appeals (1 open)' }).click();
    const dialog = moderator.getByRole('dialog', { name: 'Appeals' });
    const item = dialog.getByRole('listitem', { name: /^Appeal by / });
    await item.getByText(/I read the rules and it will not happen again/).waitFor();
    await item.getByText(/Ban reason: Spam in #general/).waitFor();
    assert.deepEqual(await blocking(moderator), [], 'the appeals dialog passes axe');
    await item.getByRole('button', { name: 'Accept' }).click();
    await item.getByLabel('Reason (optional)').fill('Apologised and understood');
    await item.getByRole('button', { name: 'Accept and unban' }).click();
    await toastWith(moderator, /was unbanned \(case #\d+\)\. They were told by DM\./);
    await dialog.getByText('No open appeals').waitFor();
    await waitFor(() => !world().guilds.get(guildId)?.bans.has(plainMemberId), 5000, 'the sandbox ban to be lifted');
    assert.match(JSON.stringify(world().dms.ofUser(plainMemberId)?.messages.at(-1)), /was accepted/);

    await page.reload();
    await page.getByText(/Your appeal was accepted .* and your ban was lifted/).waitFor();
    await page.getByText(/Reason: Apologised and understood/).waitFor();
  });
});
