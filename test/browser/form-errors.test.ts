// Issue 26, "Errors a person can read", in a real browser: a submit with errors takes the person to
// the first wrong field (scrolled into view and focused), in the shop's Add Item dialog and on a
// long settings page; and what the forms say (their own checks, and the server's answers where the
// form lets a value through) are sentences naming the field in words, never a key, with numbers
// written with thousands separators and no "try again" for a refusal. The server's answers to every
// route are swept by test/fuzz/routes.test.ts; the schemas' messages by test/fuzz/field-messages.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { sentenceProblem } from '../helpers/sentences';
import { browserSuite, toastWith, VIEWPORTS } from './helpers';

const harness = browserSuite();
const guildId = () => {
  const world = harness().product.sandbox?.world;
  assert.ok(world);
  return world.demo.guildId;
};

/** A short window: a dialog's first field is above the fold once the person has scrolled to its buttons. */
const SHORT = { width: 1280, height: 520 };

async function openPage(slug: string, heading: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/${slug}`, { viewport });
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return page;
}

/** Waits until `control` has the focus (the page moves it there after drawing the errors). */
async function waitForFocus(control: Locator): Promise<void> {
  const element = await control.elementHandle();
  await control.page().waitForFunction((target) => document.activeElement === target, element, { polling: 'raf' });
}

/** True when the element's middle is on screen and not covered (by a sticky bar, or outside a scrolled dialog). */
async function visible(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + Math.min(box.width / 2, 20);
    const y = box.top + box.height / 2;
    if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
    const top = document.elementFromPoint(x, y);
    return top !== null && (element === top || element.contains(top) || top.contains(element));
  });
}

/** Every field message shown in `scope`, each judged. */
async function fieldMessageProblems(scope: Locator | Page): Promise<string[]> {
  const texts = await scope.locator('.field-error').allInnerTexts();
  assert.ok(texts.length > 0, 'the form shows field messages');
  return texts.flatMap((text) => {
    const problem = sentenceProblem(text);
    return problem ? [`${problem}: ${JSON.stringify(text)}`] : [];
  });
}

describe('the first invalid field', () => {
  test("the shop's Add Item dialog: Item name is scrolled into view and focused, with a sentence naming it", async () => {
    const page = await openPage('economy', 'Economy & Shop', SHORT);
    await page.getByRole('button', { name: 'Add Item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Shop Item' });
    const name = dialog.getByLabel('Item Name');
    await name.waitFor();
    // The person filled the price and scrolled down to the buttons: the name is out of sight.
    await dialog.getByLabel('Price').fill('50');
    const submit = dialog.getByRole('button', { name: 'Add Item' });
    await submit.scrollIntoViewIfNeeded();
    await submit.focus();
    assert.equal(await visible(name), false, 'the name field starts out of sight (the window is short)');
    await submit.click();
    const message = dialog.getByText('Item name is required.');
    await message.waitFor();
    await waitForFocus(name);
    assert.equal(await visible(name), true, 'the name field is in view');
    assert.equal(await visible(message), true, 'its message is in view');
    assert.deepEqual(await fieldMessageProblems(dialog), []);

    // The same mistake again: the person is taken back to it, though nothing new is drawn.
    await submit.focus();
    await submit.click();
    await waitForFocus(name);

    // A role item without its role: the first wrong field is the role, below the price.
    await name.fill('VIP');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Role' }).click();
    await submit.click();
    await dialog.getByText('Role ID is required for a role item.').waitFor();
    assert.deepEqual(await fieldMessageProblems(dialog), []);
  });

  test('a long settings page: the field the server refused is scrolled into view and focused, the toast says why in words', async () => {
    const page = await openPage('leveling', 'Leveling System', VIEWPORTS.mobile);
    const cooldown = page.getByLabel('XP cooldown (seconds)');
    await cooldown.fill('100000');
    // Down at the end of the page, far below the field, the person saves.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    assert.equal(await visible(cooldown), false, 'the field starts out of sight');
    await page.getByRole('button', { name: /^Save (Settings|Changes)$/ }).click();
    const message = page.locator('.field-error', { hasText: 'XP cooldown must be between 0 and 86,400.' });
    await message.waitFor();
    await waitForFocus(cooldown);
    assert.equal(await visible(cooldown), true, 'the field is in view');
    assert.equal(await visible(message), true, 'its message is in view');
    await toastWith(page, 'XP cooldown must be between 0 and 86,400.');
    const toast = await page.getByTestId('toast').first().innerText();
    assert.doesNotMatch(toast, /try again/i, 'a refusal does not ask to try again');
    assert.doesNotMatch(toast, /xpCooldown/);
  });
});

describe("every form's messages are sentences in words", () => {
  test('the dashboard checks a form before sending: Give Coins, Add Reaction Role, a moderation action', async () => {
    const economy = await openPage('economy', 'Economy & Shop');
    await economy.getByRole('button', { name: 'Give Coins to User' }).click();
    const give = economy.getByRole('dialog', { name: 'Give Coins to User' });
    await give.getByRole('button', { name: 'Give Coins' }).click();
    await give.locator('.field-error').first().waitFor();
    assert.deepEqual(await fieldMessageProblems(give), []);

    const roles = await openPage('roles', 'Reaction Roles');
    await roles.getByRole('button', { name: 'Add Reaction Role' }).click();
    await roles.getByText('Message ID is required.').waitFor();
    assert.deepEqual(await fieldMessageProblems(roles), []);

    const moderation = await openPage('moderation', 'Moderation');
    await moderation.getByRole('button', { name: 'Ban User' }).click();
    const action = moderation.getByRole('dialog', { name: 'Ban User' });
    await action.getByRole('button', { name: 'Ban', exact: true }).click();
    await action.locator('.field-error').first().waitFor();
    assert.deepEqual(await fieldMessageProblems(action), []);
  });

  test('the server refuses what the form let through: its words land under the fields and in the toast', async () => {
    const settings = await openPage('settings', 'Bot Settings');
    const rate = settings.getByLabel('Rate limit (commands per minute)');
    await rate.fill('100000');
    await settings.getByRole('button', { name: /^Save (Settings|Changes)$/ }).click();
    await settings.locator('.field-error').first().waitFor();
    await waitForFocus(rate);
    assert.deepEqual(await fieldMessageProblems(settings), []);
    const toast = await settings.getByTestId('toast').first().innerText();
    assert.equal(sentenceProblem(toast.split('\n').at(-1) ?? ''), null, toast);
  });
});
