// Recurring announcements and editing in place in a real browser: a weekly announcement on Monday
// and Friday at 18:30 in Europe/Paris, its next three times listed in words before it is saved, and
// the history saying how it repeats; then a sent one's message edited in place with its preview.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { waitFor } from '../helpers/wait';
import { browserSuite, pick, runAxe, toastWith } from './helpers';

const harness = browserSuite();

describe('Recurring announcements', () => {
  test('a weekly announcement lists its next three times, is scheduled, and a sent message is edited in place', async () => {
    const world = harness().product.sandbox?.world;
    assert.ok(world);
    const { guildId, channels } = world.demo;
    const page = await harness().openSignedIn(`/server/${guildId}/announcements`);
    await page.getByRole('heading', { name: 'Announcements', level: 1 }).waitFor();

    await page.getByLabel('Title').fill('Game night');
    await page.getByLabel('Message', { exact: true }).fill('Join us in voice.');
    await pick(page, 'Target Channel ID', 'gener', '#general');
    await page.getByRole('combobox', { name: 'Repeat', exact: true }).click();
    await page.getByRole('option', { name: 'Every week' }).click();
    const days = page.getByRole('group', { name: 'Days of the week' });
    for (const day of ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']) {
      const button = days.getByRole('button', { name: day });
      const wanted = day === 'Monday' || day === 'Friday';
      if ((await button.getAttribute('aria-pressed')) !== String(wanted)) {
        await button.focus();
        await page.keyboard.press('Enter');
      }
    }
    await page.getByLabel('At', { exact: true }).fill('18:30');
    await pick(page, 'Time zone', 'Paris', 'Europe/Paris');

    await page.getByText('Every Monday and Friday at 18:30 (Europe/Paris).').waitFor();
    const next = page.getByRole('list', { name: 'Next occurrences' }).getByRole('listitem');
    await waitFor(async () => (await next.count()) === 3, 5000, 'three next occurrences');
    for (const text of await next.allTextContents()) assert.match(text, /^(Monday|Friday), .*6:30\s?PM/);
    const blocking = (await runAxe(page)).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    assert.deepEqual(blocking, [], 'the open repeat picker passes axe-core');

    await page.getByRole('button', { name: 'Schedule repeating announcement' }).click();
    await toastWith(page, /Announcement scheduled[\s\S]*Every Monday and Friday at 18:30 \(Europe\/Paris\)\. First/);
    const history = page.getByRole('list', { name: 'Recent announcements' });
    await history.getByText('Every Monday and Friday at 18:30 (Europe/Paris). Sent 0 times.').waitFor();

    await page.getByLabel('Title').fill('House rules');
    await page.getByLabel('Message', { exact: true }).fill('Be kind.');
    await pick(page, 'Target Channel ID', 'gener', '#general');
    await page.getByRole('button', { name: 'Send Now' }).click();
    await toastWith(page, /Announcement sent/);
    const sent = () => world.messages.list(channels.general).find((message) => message.embeds?.[0]?.title === 'House rules');
    const messageId = (await waitFor(sent, 5000, 'the sent message')).id;

    await page.getByRole('button', { name: 'Edit the message of House rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the sent message' });
    await dialog.getByLabel('Message', { exact: true }).fill('Be kind. Be patient.');
    await dialog.getByRole('figure', { name: 'Preview' }).getByText('Be kind. Be patient.').waitFor();
    await dialog.getByRole('button', { name: 'Save the message' }).click();
    await toastWith(page, /Message edited in Discord/);
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(sent()?.id, messageId, 'the same message');
    assert.equal(sent()?.embeds?.[0]?.description, 'Be kind. Be patient.');
  });
});
