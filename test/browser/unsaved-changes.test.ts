// Unsaved changes are not lost without a question (issue 26, point 2): with a draft on the
// Welcome page, a sidebar link and the back button ask "Leave this page?" (Stay keeps the draft,
// Leave goes); after Save nothing asks; the browser's own question before a reload is armed only
// while something is unsaved. A role menu's builder (a draft of its own, not the settings form)
// registers with the same guard.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Dialog, Page } from 'playwright-core';
import { browserSuite, toastWith } from './helpers';

const harness = browserSuite();
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

/** The Welcome page, signed in as the demo admin, with its form drawn. */
async function openWelcome(): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/welcome`);
  await page.getByRole('heading', { name: 'Welcome System', level: 1 }).waitFor();
  await page.getByText('All changes saved.').waitFor();
  return page;
}

/** Flips the welcome switch: the page now holds an unsaved change. */
async function makeDirty(page: Page): Promise<void> {
  await page.getByRole('switch', { name: 'Enable welcome messages' }).click();
  await page.getByText('You have unsaved changes.').waitFor();
}

const sidebar = (page: Page) => page.locator('aside.sidebar');
const leaveQuestion = (page: Page) => page.getByRole('dialog', { name: 'Leave this page?' });
const path = (page: Page) => new URL(page.url()).pathname;

/** Records the browser's own dialogs (beforeunload) and accepts each, so a reload goes on. */
function recordBrowserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog: Dialog) => {
    seen.push(dialog.type());
    void dialog.accept();
  });
  return seen;
}

describe('unsaved changes', () => {
  test('a sidebar link asks first: Stay keeps the draft on the page, Leave goes', async () => {
    const page = await openWelcome();
    await makeDirty(page);

    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    const question = leaveQuestion(page);
    await question.getByText('You have unsaved changes on this page. If you leave now, they are lost.').waitFor();
    assert.equal(path(page), `/server/${guildId()}/welcome`, 'held: the address has not changed');

    await question.getByRole('button', { name: 'Stay' }).click();
    await question.waitFor({ state: 'hidden' });
    assert.equal(path(page), `/server/${guildId()}/welcome`);
    assert.equal(await page.getByRole('switch', { name: 'Enable welcome messages' }).getAttribute('data-state'), 'checked', 'the draft is kept');
    await page.getByText('You have unsaved changes.').waitFor();

    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    await question.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId()}/dashboard`);
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
  });

  test('the back button asks too: Stay keeps the page and its draft, Leave goes back', async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/dashboard`);
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
    await sidebar(page).getByRole('link', { name: 'Welcome System' }).click();
    await page.getByRole('heading', { name: 'Welcome System', level: 1 }).waitFor();
    await page.getByText('All changes saved.').waitFor();
    await makeDirty(page);

    await page.goBack();
    const question = leaveQuestion(page);
    await question.waitFor();
    await page.waitForURL((url) => url.pathname === `/server/${guildId()}/welcome`);
    await question.getByRole('button', { name: 'Stay' }).click();
    await question.waitFor({ state: 'hidden' });
    assert.equal(path(page), `/server/${guildId()}/welcome`);
    await page.getByText('You have unsaved changes.').waitFor();

    await page.goBack();
    await question.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId()}/dashboard`);
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
    // Leaving went back one entry: forward returns to the Welcome page, clean, without a question.
    await page.goForward();
    await page.getByRole('heading', { name: 'Welcome System', level: 1 }).waitFor();
    await page.getByText('All changes saved.').waitFor();
  });

  test('after Save, a link and a reload go without a question', async () => {
    const page = await openWelcome();
    const browserDialogs = recordBrowserDialogs(page);
    await page.getByLabel('Message', { exact: true }).fill('Saved before leaving, {user}!');
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Settings Saved');
    await page.getByText('All changes saved.').waitFor();

    await page.reload();
    await page.getByText('All changes saved.').waitFor();
    assert.deepEqual(browserDialogs, [], 'no question before reloading a saved page');
    await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === `/server/${guildId()}/dashboard`);
    assert.equal(await leaveQuestion(page).count(), 0);
  });

  test('the browser asks before a reload only while something is unsaved', async () => {
    const page = await openWelcome();
    const browserDialogs = recordBrowserDialogs(page);

    // Changed, then discarded: clean again, so a reload goes unasked.
    await makeDirty(page);
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByText('All changes saved.').waitFor();
    await page.reload();
    await page.getByText('All changes saved.').waitFor();
    assert.deepEqual(browserDialogs, []);

    // Changed and not saved: the browser asks (accepted here, so the reload goes on and the draft is gone).
    await makeDirty(page);
    await page.reload();
    await page.getByText('All changes saved.').waitFor();
    assert.deepEqual(browserDialogs, ['beforeunload']);
    assert.equal(await page.getByRole('switch', { name: 'Enable welcome messages' }).getAttribute('data-state'), 'unchecked');
  });

  test('a half-built role menu asks before the back button loses it', async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/dashboard`);
    await page.getByRole('heading', { name: 'Sandbox Community', level: 1 }).waitFor();
    await sidebar(page).getByRole('link', { name: 'Reaction Roles' }).click();
    await page.getByRole('heading', { name: 'Reaction Roles', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New role menu' }).click();
    const builder = page.getByRole('dialog', { name: 'New role menu' });
    await builder.getByLabel('Title').fill('Pick your colours');

    await page.goBack();
    const question = leaveQuestion(page);
    await question.getByRole('button', { name: 'Stay' }).click();
    await question.waitFor({ state: 'hidden' });
    assert.equal(await builder.getByLabel('Title').inputValue(), 'Pick your colours', 'the builder keeps its draft');
    assert.equal(path(page), `/server/${guildId()}/roles`);
  });
});
