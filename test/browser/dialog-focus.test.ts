// Every dialog of the dashboard hands keyboard focus back to what opened it (WCAG 2.4.3): opened
// with the keyboard, closed with Escape and again with its Cancel (or Close) button, focus must be
// on the opener, not on <body>. The rows the dialogs act on are made with the route fixtures the
// access matrix uses. Failures are gathered per page, so one run names every dialog that loses focus.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { moderate } from '../../src/features/moderation/actions';
import { routeFixture } from '../factories';
import { browserSuite, pick, toastWith, VIEWPORTS } from './helpers';

const harness = browserSuite();
const world = () => {
  const sandboxWorld = harness().product.sandbox?.world;
  assert.ok(sandboxWorld);
  return sandboxWorld;
};
const guildId = () => world().demo.guildId;

/** Makes the row a route's fixture makes (e.g. 'PATCH /shop/:itemId' makes a shop item); its values. */
const fixture = (route: string) => {
  const [method = '', routePath = ''] = route.split(' ');
  return routeFixture({ method, path: routePath }, harness().product.services, guildId(), world().demo.adminUserId);
};

/** One dialog: how to find its opener, its accessible name, and the button in it that backs out. */
interface DialogCase {
  opener: (page: Page) => Locator;
  dialog: string | RegExp;
  /** The button that closes it without acting; 'Close' is the ✕ every dialog has. */
  cancel?: string;
  /** Done with the opener focused, instead of Enter: what opens the dialog (a file picked, a form sent). */
  open?: (page: Page, opener: Locator) => Promise<void>;
}

/** Which element has focus, in words, for a failure message. */
const focusedWords = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '<body>';
    return `<${element.tagName.toLowerCase()}> ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 50)}`;
  });

/**
 * Opens the dialog from its focused opener, closes it with `how` (Escape or a button pressed with
 * Enter), and answers null when focus came back to the opener, else what has focus.
 */
async function roundTrip(page: Page, entry: DialogCase, how: 'Escape' | string): Promise<string | null> {
  // A toast left by the last dialog (Reset Bot's "Reset cancelled") is a layer of its own: one that
  // mounts after the next dialog opened takes that dialog's Escape. Let it go first.
  await page.waitForFunction(() => document.querySelector('[data-testid="toast"][data-state="open"]') === null, undefined, {
    timeout: 15_000,
  });
  const opener = entry.opener(page).first();
  await opener.focus();
  if (entry.open) await entry.open(page, opener);
  else await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: entry.dialog });
  await dialog.waitFor();
  // Radix moves focus into the dialog in an effect just after it shows.
  await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null);
  if (how === 'Escape') await page.keyboard.press('Escape');
  else {
    await dialog.getByRole('button', { name: how, exact: true }).last().focus();
    await page.keyboard.press('Enter');
  }
  await dialog.waitFor({ state: 'hidden' });
  const handle = await opener.elementHandle();
  const back = await page
    .waitForFunction((element) => document.activeElement === element, handle, { timeout: 2000 })
    .then(() => true)
    .catch(() => false);
  return back ? null : await focusedWords(page);
}

/** Checks each dialog with Escape and with its cancel button; answers the failures in words. */
async function checkDialogs(page: Page, entries: DialogCase[]): Promise<string[]> {
  const failures: string[] = [];
  for (const entry of entries) {
    for (const how of ['Escape', entry.cancel ?? 'Close']) {
      const lost = await roundTrip(page, entry, how);
      if (lost) failures.push(`${String(entry.dialog)} closed with ${how}: focus on ${lost}`);
    }
  }
  return failures;
}

/** Opens a page of the demo server, signed in, and waits for its heading and content. */
async function openServerPage(slug: string, heading: string, viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/${slug}`, { viewport });
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.waitForFunction(() => document.querySelector('.skeleton, [aria-busy="true"]') === null, undefined, { timeout: 10_000 });
  return page;
}

const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name, exact: typeof name === 'string' });

describe('focus returns to the opener of every dialog', () => {
  test('Economy & Shop: Add Item, Edit and Delete an item, Give Coins, Reset Economy, and the staff-role question', async () => {
    await fixture('PATCH /shop/:itemId');
    const page = await openServerPage('economy', 'Economy & Shop');
    await page.getByRole('button', { name: /^Edit Sticker/ }).waitFor();
    const failures = await checkDialogs(page, [
      { opener: button('Add Item'), dialog: 'Add Shop Item', cancel: 'Cancel' },
      { opener: button(/^Edit Sticker/), dialog: 'Edit Shop Item', cancel: 'Cancel' },
      { opener: button(/^Delete Sticker/), dialog: 'Delete Item', cancel: 'Cancel' },
      { opener: button('Give Coins to User'), dialog: 'Give Coins to User', cancel: 'Cancel' },
      { opener: button('Reset Economy'), dialog: 'Reset Economy', cancel: 'Cancel' },
    ]);

    // A question asked over a dialog: focus goes back to the button in the dialog below it.
    await page.getByRole('button', { name: 'Add Item' }).click();
    const shop = page.getByRole('dialog', { name: 'Add Shop Item' });
    await shop.getByLabel('Item Name').fill('Deputy badge');
    await shop.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Role', exact: true }).click();
    await pick(page, 'Role ID', 'Mod', /@Moderator/);
    for (const how of ['Escape', 'Cancel']) {
      const lost = await roundTrip(
        page,
        { opener: () => shop.getByRole('button', { name: 'Add Item' }), dialog: 'Hand out a role with staff permissions?' },
        how,
      );
      if (lost) failures.push(`the staff-role question closed with ${how}: focus on ${lost}`);
    }
    assert.deepEqual(failures, []);
  });

  test('Moderation: the member actions, Reports, Appeals, Purge and Start raid mode', async () => {
    await fixture('POST /moderation/reports/:id/resolve');
    await fixture('POST /moderation/raid/start');
    const page = await openServerPage('moderation', 'Moderation');
    await pick(page, 'Channel', 'gener', '#general');
    const failures = await checkDialogs(page, [
      { opener: button('Ban User'), dialog: /^Ban/, cancel: 'Cancel' },
      { opener: button('Timeout User'), dialog: /^Timeout|^Time out/, cancel: 'Cancel' },
      { opener: button('Warn User'), dialog: /^Warn/, cancel: 'Cancel' },
      { opener: button(/^View Reports/), dialog: 'Reports' },
      { opener: button(/^View Appeals/), dialog: 'Appeals' },
      { opener: button('Purge…'), dialog: 'Purge messages', cancel: 'Cancel' },
      { opener: button('Start raid mode'), dialog: 'Start raid mode', cancel: 'Cancel' },
    ]);
    assert.deepEqual(failures, []);
  });

  test("a member's record: Edit reason, Change duration and Pardon", async () => {
    const { adminUserId, plainMemberId } = world().demo;
    const actor = { userId: adminUserId, name: 'Demo Admin', source: 'dashboard' } as const;
    const services = harness().product.services;
    const warning = await moderate(services, guildId(), { action: 'warn', targetId: plainMemberId, reason: 'Off topic' }, actor);
    const timeout = await moderate(services, guildId(), { action: 'timeout', targetId: plainMemberId, reason: 'Spam', duration: '1h' }, actor);
    const page = await harness().openSignedIn(`/server/${guildId()}/moderation/members/${plainMemberId}`);
    const warned = page.getByRole('listitem', { name: `Case #${warning.caseNumber}` });
    const timedOut = page.getByRole('listitem', { name: `Case #${timeout.caseNumber}` });
    await timedOut.getByRole('button', { name: 'Change duration' }).waitFor();
    const failures = await checkDialogs(page, [
      { opener: () => warned.getByRole('button', { name: 'Edit reason' }), dialog: /^Edit the reason of case/, cancel: 'Cancel' },
      { opener: () => timedOut.getByRole('button', { name: 'Change duration' }), dialog: /^Change the duration of case/, cancel: 'Cancel' },
      { opener: () => warned.getByRole('button', { name: 'Pardon' }), dialog: /^Pardon warning/, cancel: 'Cancel' },
    ]);
    assert.deepEqual(failures, []);
  });

  test('Leveling System: Adjust XP, the resets, a backup to restore and a role reward to delete', async () => {
    await fixture('POST /leveling/reset');
    await fixture('POST /leveling/backups/:id/restore');
    await fixture('DELETE /leveling/rewards/:id');
    const page = await openServerPage('leveling', 'Leveling System');
    await page.getByRole('button', { name: 'Reset every member' }).and(page.locator(':enabled')).waitFor();
    const failures = await checkDialogs(page, [
      { opener: button('Give or take XP'), dialog: 'Adjust XP', cancel: 'Cancel' },
      { opener: button('Reset a member'), dialog: 'Reset a member', cancel: 'Cancel' },
      { opener: button('Reset every member'), dialog: 'Reset every member?', cancel: 'Cancel' },
      { opener: button(/^Restore: Fixture reset/), dialog: 'Restore this backup?', cancel: 'Cancel' },
      { opener: button(/^Delete the reward|^Delete .*level 51/i), dialog: 'Delete this role reward?', cancel: 'Cancel' },
    ]);
    assert.deepEqual(failures, []);
  });

  test('Bot Settings: Import settings, both steps of Reset Bot, and Restore this version', async () => {
    const page = await openServerPage('settings', 'Bot Settings');
    // A saved change puts a restorable version in the history.
    await page.getByLabel('Custom embed footer').fill('Footer for the history');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    // The save's toast first: a toast that shows over an open dialog takes Escape for itself.
    await toastWith(page, 'Settings saved');
    const restore = page.getByRole('button', { name: /^Restore the settings as of change/ }).first();
    await restore.waitFor();
    const file = path.join(tmpdir(), `settings-${Date.now()}.json`);
    await writeFile(file, JSON.stringify({ version: '1.0.0', exportedAt: new Date().toISOString(), serverSettings: { commandPrefix: '$' } }));
    // The button opens the system's file picker; the file is handed to its input as the picker would.
    const importFile = (current: Page) => current.getByTestId('import-file').setInputFiles(file);
    const failures = await checkDialogs(page, [
      { opener: button('Import Data'), dialog: 'Import settings', cancel: 'Cancel', open: importFile },
      { opener: button('Reset Bot'), dialog: 'Reset the bot?', cancel: 'Cancel' },
      { opener: () => restore, dialog: 'Restore this version?', cancel: 'Cancel' },
    ]);
    // The second step of Reset Bot: the dialog stays open between the steps, then hands focus back.
    const open = async (current: Page) => {
      await current.keyboard.press('Enter');
      await current.getByRole('dialog', { name: 'Reset the bot?' }).getByRole('button', { name: 'Continue' }).click();
    };
    for (const how of ['Escape', 'Close']) {
      const lost = await roundTrip(page, { opener: button('Reset Bot'), dialog: 'Type RESET to confirm', open }, how);
      if (lost) failures.push(`Type RESET to confirm closed with ${how}: focus on ${lost}`);
    }
    assert.deepEqual(failures, []);
  });

  test('Music: stations, tracks and the voice channel question', async () => {
    await fixture('PATCH /music/stations/:id');
    await fixture('PATCH /music/library/:trackId');
    const page = await openServerPage('music', 'Music');
    const failures = await checkDialogs(page, [
      { opener: button('Add station'), dialog: 'Add station', cancel: 'Cancel' },
      { opener: button(/^Edit Station/), dialog: 'Edit station', cancel: 'Cancel' },
      { opener: button(/^Delete Station/), dialog: 'Delete station', cancel: 'Cancel' },
      { opener: button('Rename Example'), dialog: 'Rename track', cancel: 'Cancel' },
      { opener: button('Delete Example'), dialog: 'Delete track', cancel: 'Cancel' },
      { opener: button('Play Example'), dialog: 'Pick a voice channel' },
    ]);
    assert.deepEqual(failures, []);
  });

  test('User Inventory: About an item and Remove Item', async () => {
    await fixture('DELETE /users/:userId/inventory/:entryId');
    const page = await openServerPage('inventory', 'User Inventory');
    const failures = await checkDialogs(page, [
      { opener: button('About Example'), dialog: 'Example' },
      { opener: button(/^Remove/), dialog: 'Remove Item', cancel: 'Cancel' },
    ]);
    assert.deepEqual(failures, []);
  });

  test('Reaction Roles: delete a reaction role; new, edit and delete a role menu', async () => {
    await fixture('DELETE /reaction-roles/:id');
    await fixture('DELETE /role-menus/:id');
    const page = await openServerPage('roles', 'Reaction Roles');
    const failures = await checkDialogs(page, [
      { opener: button(/^Delete the reaction role|^Delete 👍/), dialog: 'Delete this reaction role?', cancel: 'Cancel' },
      { opener: button('New role menu'), dialog: 'New role menu', cancel: 'Cancel' },
      { opener: button('Edit Roles'), dialog: 'Edit Roles', cancel: 'Cancel' },
      { opener: button('Delete Roles'), dialog: 'Delete this role menu?', cancel: 'Cancel' },
    ]);
    assert.deepEqual(failures, []);
  });

  test('Announcements: edit and cancel a scheduled one, edit a sent message', async () => {
    await fixture('PATCH /announcements/:id');
    await fixture('PATCH /announcements/:id/message');
    const page = await openServerPage('announcements', 'Announcements');
    const failures = await checkDialogs(page, [
      { opener: button('Edit Game night'), dialog: 'Edit the scheduled announcement', cancel: 'Back' },
      { opener: button('Cancel Game night'), dialog: 'Cancel this announcement?' },
      { opener: button('Edit the message of Game night'), dialog: 'Edit the sent message', cancel: 'Back' },
    ]);
    assert.deepEqual(failures, []);
  });

  test('the phone drawer', async () => {
    const page = await openServerPage('dashboard', 'Sandbox Community', VIEWPORTS.mobile);
    const failures = await checkDialogs(page, [{ opener: button('Open navigation menu'), dialog: 'Menu', cancel: 'Close navigation menu' }]);
    assert.deepEqual(failures, []);
  });
});
