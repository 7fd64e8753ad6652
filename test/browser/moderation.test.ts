// The Moderation page in a real browser: the action dialog's 'Missing Information' (no request
// sent), a warning on a real demo member with the spec's toast and its case in the log, a refused
// ban with 'Action Failed' and the server's reason, the log searched and filtered by the server,
// View Reports listing a /report and dismissing or resolving it, the escalation ladder and an auto
// moderation rule saved through Save Settings, the line saying staff are not checked with its switch
// (keyboard, saved), and the page on a phone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { recordCase } from '../../src/features/moderation/cases';
import { AUTOMOD_STAFF_TEXT, ModerationCaseSchema, lastFour } from '../../src/shared/moderation';
import { waitFor } from '../helpers/wait';
import { assertUncovered, browserSuite, toastWith, VIEWPORTS } from './helpers';

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};
const guildId = () => world().demo.guildId;

/** Signs in with the demo login and opens the Moderation page of the demo guild. */
async function openModeration(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/moderation`, { viewport });
  await page.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Warn User' }).waitFor();
  return page;
}

/** A new member of the demo guild, once the bot has seen them join. */
async function newMember(username: string, roleIds: string[] = []) {
  const { product } = harness();
  const member = world().addMember(guildId(), { username, roleIds });
  await waitFor(() => product.client.guilds.cache.get(guildId())?.members.cache.has(member.userId), 10_000, `the bot to see ${username}`);
  return member.userId;
}

/** Runs a slash command in the demo guild's general channel as a member (the sandbox's control API). */
async function slash(userId: string, name: string, options: Record<string, string>) {
  const sandbox = harness().product.sandbox;
  assert.ok(sandbox);
  const response = await fetch(`${sandbox.url}/_sandbox/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ guildId: guildId(), channelId: world().demo.channels.general, userId, name, options }),
  });
  return { status: response.status, body: (await response.json()) as { content?: string } };
}

/** Runs an action through the API as the signed-in page (same origin, its session) and answers the case. */
async function seedCase(page: Page, input: { action: string; targetId: string; reason: string }) {
  const body = await page.evaluate(
    async ({ guild, input }) => {
      const response = await fetch(`/api/servers/${guild}/moderation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      return { status: response.status, json: (await response.json()) as unknown };
    },
    { guild: guildId(), input },
  );
  assert.equal(body.status, 200, JSON.stringify(body.json));
  return ModerationCaseSchema.parse(body.json);
}

/** Picks a member in the dialog's member picker by searching their name. */
async function pickMember(page: Page, scope: ReturnType<Page['getByRole']>, search: string, option: RegExp) {
  await scope.getByRole('combobox', { name: 'Member' }).click();
  await page.keyboard.type(search);
  await page.getByRole('option', { name: option }).first().click();
}

/** Presses Escape until the dialog closes: the first press closes the newest layer, which may be a toast. */
async function closeWithEscape(page: Page, dialog: ReturnType<Page['getByRole']>) {
  await waitFor(
    async () => {
      await page.keyboard.press('Escape');
      // Let the layer's close animation finish before deciding (slow under a loaded CI machine).
      await page.waitForTimeout(200);
      return (await dialog.count()) === 0;
    },
    15_000,
    'Escape to close the dialog',
  );
}

const cases = (page: Page) => page.getByRole('list', { name: 'Moderation cases' });

describe('Moderation', () => {
  test("the empty log and zero counts; the dialog says 'Missing Information' and sends nothing without a member and a reason", async () => {
    const page = await openModeration();
    assert.equal(await page.title(), 'Moderation · Sandbox Community · AwesomeBot Dashboard');
    await page.getByText('No moderation logs yet').waitFor();
    for (const label of ['Total Actions', 'Bans', 'Warnings', 'Timeouts'])
      await page.locator('.stat-card').filter({ hasText: label }).getByText('0', { exact: true }).waitFor();

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/moderation')) posts.push(request.url());
    });
    await page.getByRole('button', { name: 'Warn User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Warn User' });
    await dialog.getByRole('button', { name: 'Warn', exact: true }).click();
    await toastWith(page, /Missing Information[\s\S]*Please provide both user ID and reason\./);
    await dialog.getByText('Pick a member or paste a user ID.').waitFor();

    // A reason alone is not enough either; Escape closes the dialog.
    await dialog.getByLabel('Reason').fill('Being rude');
    await dialog.getByRole('button', { name: 'Warn', exact: true }).click();
    await toastWith(page, 'Please provide both user ID and reason.');
    assert.deepEqual(posts, [], 'no request was sent');
    await closeWithEscape(page, dialog);
  });

  test('a warning on a demo member: the spec toast, the dialog closes and clears, the case shows in the log and the counts follow', async () => {
    const page = await openModeration();
    const member = world().users.get(world().demo.plainMemberId);
    assert.ok(member);
    await page.getByRole('button', { name: 'Warn User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Warn User' });
    await pickMember(page, dialog, member.username.slice(0, 4), new RegExp(member.username));
    await dialog.getByLabel('Reason').fill('Spamming the general channel');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/moderation'));
    await dialog.getByRole('button', { name: 'Warn', exact: true }).click();
    const created = ModerationCaseSchema.parse(await (await answer).json());
    assert.equal(created.action, 'warn');
    assert.equal(created.targetId, member.id);
    await toastWith(page, /Moderation Action Completed[\s\S]*Successfully executed warn action\./);
    await dialog.waitFor({ state: 'hidden' });

    const entry = cases(page).getByRole('listitem', { name: `Case #${created.caseNumber}` });
    await entry.getByText('Spamming the general channel').waitFor();
    await entry.getByText(`User #${lastFour(member.id)}`).waitFor();
    await entry.getByText(/By: Moderator #\d{4}/).waitFor();
    await entry.getByText('Warn', { exact: true }).waitFor();
    await page.locator('.stat-card').filter({ hasText: 'Warnings' }).getByText('1', { exact: true }).waitFor();
    await page.locator('.stat-card').filter({ hasText: 'Total Actions' }).getByText('1', { exact: true }).waitFor();

    // Opened again, the dialog starts blank.
    await page.getByRole('button', { name: 'Warn User' }).click();
    assert.equal(await dialog.getByLabel('Reason').inputValue(), '');
    await dialog.getByRole('combobox', { name: 'Member' }).getByText('Pick a member or paste an ID').waitFor();
  });

  test("a ban the bot cannot carry out says 'Action Failed' with the server's reason and keeps the dialog open", async () => {
    await newMember('bigboss', [world().demo.roles.aboveBot]);
    const page = await openModeration();
    await page.getByRole('button', { name: 'Ban User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban User' });
    await pickMember(page, dialog, 'bigbo', /bigboss/);
    await dialog.getByLabel('Reason').fill('Testing the hierarchy');
    await dialog.getByRole('combobox', { name: 'Duration' }).getByText('Permanent').waitFor();
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await toastWith(page, /Action Failed[\s\S]*Senior Staff/);
    await dialog.getByLabel('Reason').waitFor();
  });

  test('the log is searched and filtered by the server: words, a case number, an action, and nothing found', async () => {
    const page = await openModeration();
    const plain = world().demo.plainMemberId;
    const other = await newMember('noted_member');
    await seedCase(page, { action: 'note', targetId: other, reason: 'Prefers the quiet channels' });
    const warned = await seedCase(page, { action: 'warn', targetId: plain, reason: 'Posted an unsolicited advert' });
    await page.reload();
    await cases(page)
      .getByRole('listitem', { name: `Case #${warned.caseNumber}` })
      .waitFor();

    const searched = page.waitForRequest((request) => request.url().includes('/moderation/logs') && new URL(request.url()).searchParams.get('q') === 'advert');
    await page.getByRole('searchbox', { name: 'Search' }).fill('advert');
    await searched;
    await waitFor(async () => (await cases(page).getByRole('listitem').count()) === 1, 10_000, 'one case to match "advert"');
    await cases(page)
      .getByRole('listitem', { name: `Case #${warned.caseNumber}` })
      .waitFor();

    // A case number (#N) as a search: test/moderation/moderation.test.ts ('the logs are searched and filtered on the server').
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    const filtered = page.waitForRequest(
      (request) => request.url().includes('/moderation/logs') && new URL(request.url()).searchParams.get('action') === 'note',
    );
    await page.getByRole('combobox', { name: 'Action filter' }).click();
    await page.getByRole('option', { name: 'Note', exact: true }).click();
    await filtered;
    await waitFor(
      async () => {
        const items = cases(page).getByRole('listitem');
        const count = await items.count();
        return count >= 1 && (await items.filter({ hasText: 'Note' }).count()) === count;
      },
      10_000,
      'only notes to be listed',
    );
    assert.equal(await cases(page).getByText('Posted an unsolicited advert').count(), 0);

    await page.getByRole('searchbox', { name: 'Search' }).fill('nothing-like-this-anywhere');
    await page.getByText('No matching logs found').waitFor();
  });

  test('View Reports lists a /report with its reporter and reason; dismiss one, resolve another with a warning that links a case', async () => {
    const reporter = world().demo.plainMemberId;
    const target = await newMember('loud_spammer');
    const first = await slash(reporter, 'report', { member: target, reason: 'Spamming links in general' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    // One report per reporter and target at a time: the second comes from someone else.
    const second = await slash(await newMember('concerned_member'), 'report', { member: target, reason: 'Insulting other members' });
    assert.equal(second.status, 200, JSON.stringify(second.body));

    const page = await openModeration();
    await page.getByRole('button', { name: 'View Reports (2 open)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reports' });
    const list = dialog.getByRole('list', { name: 'Reports' });
    const spam = list.getByRole('listitem').filter({ hasText: 'Spamming links in general' });
    await spam
      .getByText(/loud_spammer/)
      .first()
      .waitFor();
    await spam.getByText(/Reported by/).waitFor();

    await spam.getByRole('button', { name: 'Dismiss' }).click();
    await toastWith(page, 'Report dismissed');
    await waitFor(async () => (await spam.count()) === 0, 10_000, 'the dismissed report to leave the open list');

    const insult = list.getByRole('listitem').filter({ hasText: 'Insulting other members' });
    await insult.getByRole('button', { name: 'Resolve' }).click();
    await insult.getByRole('combobox', { name: 'Action on the member' }).click();
    await page.getByRole('option', { name: 'Warn', exact: true }).click();
    await insult.getByRole('button', { name: 'Resolve and act' }).click();
    await toastWith(page, /Report resolved[\s\S]*Case #\d+ was recorded for it\./);
    await dialog.getByText('No open reports').waitFor();

    await dialog.getByRole('button', { name: 'Dismissed' }).click();
    await list.getByText('Spamming links in general').waitFor();
    await dialog.getByRole('button', { name: 'Resolved' }).click();
    await list.getByText(/Case #\d+/).waitFor();
    await closeWithEscape(page, dialog);
    await page.getByRole('button', { name: 'View Reports', exact: true }).waitFor();
  });

  test('an escalation step saves with the page toast; a second step at the same count is refused under its field', async () => {
    const page = await openModeration();
    await page.getByRole('button', { name: 'Add step' }).click();
    const step = page.getByRole('listitem', { name: 'Step 1' });
    await step.getByLabel('Warnings').fill('3');
    await step.getByRole('combobox', { name: 'Step 1 duration' }).getByText('1 hour').waitFor();
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, /Settings Saved[\s\S]*Moderation settings have been updated successfully\./);
    await page.getByText('All changes saved.').waitFor();
    assert.deepEqual((await harness().product.services.settings.get(guildId())).escalation, [{ warnings: 3, action: 'timeout', duration: '1h' }]);

    await page.getByRole('button', { name: 'Add step' }).click();
    const second = page.getByRole('listitem', { name: 'Step 2' });
    await second.getByLabel('Warnings').fill('3');
    await second.getByRole('combobox', { name: 'Step 2 action' }).click();
    await page.getByRole('option', { name: 'Kick' }).click();
    await assertUncovered(page.getByRole('button', { name: 'Save Settings' }), 'Save Settings, while the toast shows,');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Save Failed');
    await second.getByText('has another step at 3 warnings').waitFor();
    assert.equal((await harness().product.services.settings.get(guildId())).escalation.length, 1, 'nothing was saved');

    await second.getByLabel('Warnings').fill('5');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Moderation settings have been updated successfully.');
    await page.reload();
    await page.getByRole('listitem', { name: 'Step 2' }).waitFor();
    assert.equal(await page.getByRole('listitem', { name: 'Step 2' }).getByLabel('Warnings').inputValue(), '5');
  });

  test('an auto moderation rule: turned on with its word list and a timeout, saved with the master switch', async () => {
    const page = await openModeration();
    const rule = page.getByRole('group', { name: 'Blocked words' });
    await rule.getByRole('switch').click();
    await rule.getByLabel('Word list').fill('badword\n  another phrase \n\n');
    await rule.getByRole('combobox', { name: 'Blocked words: action' }).click();
    await page.getByRole('option', { name: 'Delete and time out' }).click();
    await rule.getByRole('combobox', { name: 'Blocked words: timeout duration' }).getByText('10 minutes').waitFor();
    await page.getByText(/Auto moderation is off: the rule turned on below will not run/).waitFor();
    await page.getByRole('switch', { name: 'Auto moderation' }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Moderation settings have been updated successfully.');
    const saved = await harness().product.services.settings.get(guildId());
    assert.equal(saved.automodEnabled, true);
    assert.deepEqual(
      { ...saved.automodRules.words, exemptRoleIds: [], exemptChannelIds: [] },
      { enabled: true, action: 'timeout', duration: '10m', exemptRoleIds: [], exemptChannelIds: [], words: ['badword', 'another phrase'] },
    );
  });

  test('auto moderation says staff are not checked; the switch to include them works from the keyboard and saving it persists it', async () => {
    const page = await openModeration();
    const line = page.getByText(AUTOMOD_STAFF_TEXT.spared, { exact: true });
    await line.waitFor();
    const staff = page.getByRole('switch', { name: AUTOMOD_STAFF_TEXT.label });
    assert.equal(await staff.getAttribute('aria-checked'), 'false');
    // The line is the switch's description, so a screen reader hears it with the switch.
    const describedBy = (await staff.getAttribute('aria-describedby')) ?? '';
    assert.ok(describedBy && (await line.getAttribute('id')) === describedBy.split(' ')[0], 'the switch is described by the line');

    await staff.focus();
    await page.keyboard.press('Space');
    assert.equal(await staff.getAttribute('aria-checked'), 'true');
    await page.getByText(AUTOMOD_STAFF_TEXT.included, { exact: true }).waitFor();
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Moderation settings have been updated successfully.');
    assert.equal((await harness().product.services.settings.get(guildId())).automodIncludeStaff, true);

    await page.reload();
    await page.getByRole('switch', { name: AUTOMOD_STAFF_TEXT.label }).waitFor();
    assert.equal(await page.getByRole('switch', { name: AUTOMOD_STAFF_TEXT.label }).getAttribute('aria-checked'), 'true');
    await page.getByText(AUTOMOD_STAFF_TEXT.included, { exact: true }).waitFor();
  });

  test('a 90-day timeout from the dialog: the longer durations are offered and the log says 90 days; a channel tool’s case names the channel', async () => {
    await newMember('longmuted');
    const page = await openModeration();
    await page.getByRole('button', { name: 'Timeout User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Timeout User' });
    await pickMember(page, dialog, 'longm', /longmuted/);
    await dialog.getByLabel('Reason').fill('A long cool off');
    await dialog.getByRole('combobox', { name: 'Duration' }).click();
    for (const label of ['1 week', '2 weeks', '30 days', '90 days', '1 year']) await page.getByRole('option', { name: label, exact: true }).waitFor();
    await page.getByRole('option', { name: '90 days', exact: true }).click();
    const answer = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/moderation'));
    await dialog.getByRole('button', { name: 'Time out', exact: true }).click();
    const created = ModerationCaseSchema.parse(await (await answer).json());
    assert.equal(created.duration, '90d');
    await dialog.waitFor({ state: 'hidden' });
    await cases(page)
      .getByRole('listitem', { name: `Case #${created.caseNumber}` })
      .getByText(/Duration: 90 days/)
      .waitFor();

    // A channel tool's case (written as purge writes it: the bot needs Manage Messages there for a real one).
    const channelId = world().demo.channels.general;
    const channelName = `#${world().guilds.get(guildId())?.channels.get(channelId)?.name ?? ''}`;
    const set = await recordCase(harness().product.services, guildId(), {
      action: 'purge',
      targetId: channelId,
      targetName: channelName,
      moderatorId: world().demo.adminUserId,
      moderatorName: null,
      reason: 'Deleted 3 messages',
      source: 'dashboard',
    });
    assert.ok(set);
    await page.reload();
    const entry = cases(page).getByRole('listitem', { name: `Case #${set.caseNumber}` });
    await entry.getByText(`Channel #${lastFour(channelId)}`).waitFor();
    await entry.getByText(channelName, { exact: true }).waitFor();
    assert.equal(await entry.getByText(/User #/).count(), 0, 'a channel is not labelled as a user');
  });

  test('on a phone the page fits the screen and the dialog can be used', async () => {
    const page = await openModeration(VIEWPORTS.mobile);
    await cases(page).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    await page.getByRole('button', { name: 'Timeout User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Timeout User' });
    await dialog.getByRole('combobox', { name: 'Duration' }).waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= VIEWPORTS.mobile.width, 'the dialog fits the screen');
  });
});
