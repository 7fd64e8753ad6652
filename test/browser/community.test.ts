// The community pages in a real browser, each main path: Welcome (fill, preview, save with the
// spec toast, reload, Test Message, the missing-channel rule), Rule Verification (the checklist,
// save, the posted rules message), Reaction Roles (the missing-information toast, add from a
// picked message, delete), Announcements (Send Now, Schedule, cancel), and the server dashboard's
// problem counts. Pickers are searchable comboboxes driven by keyboard and mouse.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSuite, pick, toastWith, VIEWPORTS } from './helpers';

const harness = browserSuite();

async function open(slug: string, heading: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const guildId = harness().product.sandbox?.world.demo.guildId ?? '';
  const page = await harness().openSignedIn(`/server/${guildId}/${slug}`, { viewport });
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

describe('Welcome System', () => {
  test('fill with a live preview, save with the spec toast, reload shows it; Test Message posts and is listed', async () => {
    const page = await open('welcome', 'Welcome System');
    await page.getByRole('switch', { name: 'Enable welcome messages' }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, /Missing Channel[\s\S]*Please provide a channel ID when welcome messages are enabled\./);

    await pick(page, 'Channel ID', 'welc', '#welcome');
    await page.getByLabel('Message', { exact: true }).fill('Hello ');
    await page.getByRole('group', { name: 'Insert into message' }).getByRole('button', { name: '{user}' }).click();
    await page.getByLabel('Message', { exact: true }).press('End');
    await page.getByLabel('Message', { exact: true }).pressSequentially(', welcome to {server}!');
    const preview = page.getByRole('figure', { name: 'Preview' }).first();
    await preview.getByText('Hello @demo_admin, welcome to Sandbox Community!').waitFor();

    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, /Settings Saved[\s\S]*Welcome message settings have been updated successfully\./);
    await page.reload();
    await page.getByLabel('Message', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Message', { exact: true }).inputValue(), 'Hello {user}, welcome to {server}!');
    assert.equal(await page.getByRole('switch', { name: 'Enable welcome messages' }).getAttribute('data-state'), 'checked');
    // The channel's name shows once the server's directory has loaded (its id until then).
    await page.getByRole('combobox', { name: 'Channel ID' }).filter({ hasText: '#welcome' }).waitFor();

    await page.getByRole('button', { name: 'Test Message' }).click();
    await toastWith(page, /Test Message Sent[\s\S]*Posted in #welcome/);
    const recent = page.getByRole('list', { name: 'Recent welcome messages' });
    await recent.getByText('Test Message').first().waitFor();
    const posted = harness()
      .product.sandbox?.world.messages.list(harness().product.sandbox?.world.demo.channels.welcome ?? '')
      .at(-1);
    assert.equal(posted?.content, `Hello <@${harness().product.sandbox?.world.demo.adminUserId}>, welcome to Sandbox Community!`);
  });
});

describe('Rule Verification', () => {
  test('the checklist follows the form before saving; save posts the rules message', async () => {
    const page = await open('rules', 'Rule Verification');
    const checklist = page.getByRole('list', { name: 'Verification checklist' });
    await checklist.getByText('Pick the rules channel.').waitFor();
    await page.getByRole('switch', { name: 'Enable verification' }).click();
    await pick(page, 'Rules channel ID', 'rules', '#rules');
    await pick(page, 'Verification role ID', 'verif', '@Verified');
    await checklist.getByText('AwesomeBot can give @Verified.').waitFor();
    await checklist.getByText('Write the rules members agree to.').waitFor();
    await page.getByLabel('Rules message').fill('1. Be kind.\n2. No spam.');
    await checklist.getByText('The rules message will be posted when you save.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, /Settings Updated[\s\S]*Rule verification settings have been saved successfully\./);
    await checklist.getByText('The rules message is posted; saving updates it.').waitFor();
    await page.getByRole('link', { name: /Open the rules message/ }).waitFor();
  });
});

describe('Reaction Roles', () => {
  test('an incomplete form says Missing Information; add from a picked message, then delete it', async () => {
    const page = await open('roles', 'Reaction Roles');
    await page.getByText('No reaction roles yet').waitFor();
    await page.getByRole('button', { name: 'Add Reaction Role' }).click();
    await toastWith(page, /Missing Information[\s\S]*Please fill in all required fields\./);

    const world = harness().product.sandbox?.world;
    assert.ok(world);
    world.messages.create(world.demo.channels.general, { authorId: world.demo.adminUserId, content: 'React below to pick your colour' });
    await pick(page, 'Channel ID', 'gener', '#general');
    await pick(page, 'Recent messages', 'colour', /React below to pick your colour/);
    await pick(page, 'Emoji', '👍', '👍');
    await pick(page, 'Role ID', 'Memb', '@Member');
    await page.getByRole('button', { name: 'Add Reaction Role' }).click();
    await toastWith(page, 'Reaction Role Added');
    const row = page.getByRole('row', { name: /@Member/ });
    await row.waitFor();
    assert.match(await row.innerText(), /#general/);

    await page.getByRole('button', { name: 'Delete 👍 → @Member' }).click();
    await page.getByRole('dialog', { name: 'Delete this reaction role?' }).getByRole('button', { name: 'Delete' }).click();
    await toastWith(page, 'Reaction Role Removed');
    await page.getByText('No reaction roles yet').waitFor();
  });
});

describe('Announcements', () => {
  test('Send Now posts it with the spec toast; a scheduled one is listed and can be cancelled', async () => {
    const page = await open('announcements', 'Announcements');
    const submit = page.getByRole('button', { name: 'Send Now' });
    assert.equal(await submit.isDisabled(), true, 'disabled until title, message and channel are filled');
    await page.getByLabel('Title').fill('Server maintenance');
    await page.getByLabel('Message', { exact: true }).fill('Back in an hour.');
    await pick(page, 'Target Channel ID', 'announ', '#announcements');
    await page.getByLabel('Priority').click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await page.getByRole('figure', { name: 'Preview' }).getByText('⚠️ Urgent').waitFor();
    await submit.click();
    await toastWith(page, /Announcement sent[\s\S]*Your announcement has been successfully sent to the channel\./);
    const history = page.getByRole('list', { name: 'Recent announcements' });
    await history.getByText('Server maintenance').waitFor();

    await page.getByLabel('Title').fill('Game night');
    await page.getByLabel('Message', { exact: true }).fill('Friday at 8.');
    await pick(page, 'Target Channel ID', 'gener', '#general');
    // Tomorrow, on the browser's own wall clock (the input holds local time).
    // (A string, so the test runner's transpiler adds no helpers the page lacks.)
    const tomorrow = await page.evaluate<string>(
      "(() => { const at = new Date(Date.now() + 86400000); const p = (n) => String(n).padStart(2, '0'); return at.getFullYear() + '-' + " +
        "p(at.getMonth() + 1) + '-' + p(at.getDate()) + 'T' + p(at.getHours()) + ':' + p(at.getMinutes()); })()",
    );
    await page.getByLabel('Schedule').fill(tomorrow);
    await page.getByRole('button', { name: 'Schedule Announcement' }).click();
    await toastWith(page, 'Announcement scheduled');
    await history.getByText('Scheduled').waitFor();
    await page.getByRole('button', { name: 'Cancel Game night' }).click();
    await page.getByRole('dialog', { name: 'Cancel this announcement?' }).getByRole('button', { name: 'Cancel announcement' }).click();
    await toastWith(page, 'Announcement cancelled');
    await history.getByText('Cancelled').waitFor();
  });

  test('on a phone the page fits the screen', async () => {
    const page = await open('announcements', 'Announcements', VIEWPORTS.mobile);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
  });
});

describe('server dashboard', () => {
  test('a feature with a problem shows its count on its tile', async () => {
    const world = harness().product.sandbox?.world;
    assert.ok(world);
    const page = await open('rules', 'Rule Verification');
    // The rules message of the earlier test is deleted in Discord: the dashboard counts it.
    const state = await harness().product.services.guildState.get(world.demo.guildId, 'rulesMessage');
    assert.ok(state, 'the rules message was posted by the earlier test');
    const message = world.messages.get(state.messageId);
    assert.ok(message);
    world.messages.delete(message);
    await page.goto(`/server/${world.demo.guildId}/dashboard`);
    await page.getByRole('link', { name: /Rule Verification\s*1 problem/ }).waitFor();
  });
});
