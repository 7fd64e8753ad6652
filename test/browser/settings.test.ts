// Bot Settings in a real browser: edit, save, the spec's toast, reload shows the value; import
// with a dry-run preview; reset with the confirmation and RESET; the history and its restore.
import assert from 'node:assert/strict';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertUncovered, browserSuite, toastWith, VIEWPORTS } from './helpers';

const harness = browserSuite();

async function openSettings(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const guildId = harness().product.sandbox?.world.demo.guildId ?? '';
  const page = await harness().openSignedIn(`/server/${guildId}/settings`, { viewport });
  await page.getByRole('heading', { name: 'Bot Settings', level: 1 }).waitFor();
  await page.getByLabel('Display name').waitFor();
  return page;
}

describe('Bot Settings', () => {
  test('edit, save with the spec toast, and a reload shows the saved values; the tab is titled after the page and server', async () => {
    const page = await openSettings();
    assert.equal(await page.title(), 'Bot Settings · Sandbox Community · AwesomeBot Dashboard');
    await page.getByLabel('Command prefix').fill('?');
    await page.getByLabel('Custom embed footer').fill('Be kind');
    await page.getByLabel('Rate limit (commands per minute)').fill('30');
    await page.getByRole('switch', { name: 'Auto moderation' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastWith(page, /Settings saved[\s\S]*Your bot settings have been successfully updated\./);

    await page.reload();
    await page.getByLabel('Command prefix').waitFor();
    assert.equal(await page.getByLabel('Command prefix').inputValue(), '?');
    assert.equal(await page.getByLabel('Custom embed footer').inputValue(), 'Be kind');
    assert.equal(await page.getByLabel('Rate limit (commands per minute)').inputValue(), '30');
    assert.equal(await page.getByRole('switch', { name: 'Auto moderation' }).getAttribute('data-state'), 'checked');
    await page
      .getByRole('list', { name: 'Settings history' })
      .getByText(/commandPrefix/)
      .first()
      .waitFor();
  });

  test("a bad value is refused with the server's reason in the toast (no 'Please try again': it would be refused again) and under the field", async () => {
    const page = await openSettings();
    await page.getByLabel('Rate limit (commands per minute)').fill('5000');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastWith(page, /Error[\s\S]*Rate limit \(commands per minute\) must be between 1 and 600\./);
    assert.doesNotMatch(await page.getByTestId('toast').first().innerText(), /try again/i);
    await page.locator('.field-error', { hasText: 'Rate limit (commands per minute) must be between 1 and 600.' }).waitFor();
  });

  test('import: a non-JSON file says Import Failed; a real file is previewed, then applied', async () => {
    const page = await openSettings();
    const dir = await mkdtemp(path.join(tmpdir(), 'import-'));
    const bad = path.join(dir, 'notes.txt');
    await writeFile(bad, 'not json');
    await page.getByTestId('import-file').setInputFiles(bad);
    await toastWith(page, /Import Failed[\s\S]*Invalid JSON file format\./);

    const good = path.join(dir, 'settings.json');
    await writeFile(
      good,
      JSON.stringify({ version: '1.0.0', exportedAt: new Date().toISOString(), serverSettings: { commandPrefix: '$', embedFooter: 'Imported footer' } }),
    );
    await page.getByTestId('import-file').setInputFiles(good);
    const dialog = page.getByRole('dialog', { name: 'Import settings' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /commandPrefix[\s\S]*\$/);
    assert.equal((await page.getByLabel('Custom embed footer').inputValue()) !== 'Imported footer', true, 'the preview changed nothing yet');
    await dialog.getByRole('button', { name: 'Apply import' }).click();
    await toastWith(page, 'Settings Imported');
    await page.waitForFunction(() => (document.querySelector('input[maxlength="2048"]') as HTMLInputElement | null)?.value === 'Imported footer');
  });

  test('reset: cancelling says Reset Cancelled; typing RESET restores the defaults', async () => {
    const page = await openSettings();
    await page.getByRole('button', { name: 'Reset Bot' }).click();
    await page.getByRole('dialog', { name: 'Reset the bot?' }).getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Confirmation').fill('reset please');
    await page.getByRole('dialog').getByRole('button', { name: 'Reset Bot' }).click();
    await toastWith(page, 'Reset Cancelled');

    await page.getByRole('button', { name: 'Reset Bot' }).click();
    await page.getByRole('dialog', { name: 'Reset the bot?' }).getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Confirmation').fill('RESET');
    await page.keyboard.press('Enter');
    await toastWith(page, 'Bot Reset Initiated');
    await page.waitForFunction(() => (document.querySelector('input[maxlength="5"]') as HTMLInputElement | null)?.value === '!');
    assert.equal(await page.getByLabel('Custom embed footer').inputValue(), '');
  });

  test('on a phone the page fits the screen and the save bar is reachable', async () => {
    const page = await openSettings(VIEWPORTS.mobile);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    await page.getByLabel('Display name').fill('Phone Bot');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastWith(page, 'Your bot settings have been successfully updated.');
    await page.getByLabel('Display name').fill('AwesomeBot');
    await assertUncovered(page.getByRole('button', { name: 'Save Changes' }), 'Save Changes, while the toast shows,');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('All changes saved.').waitFor();
  });
});
