// The Music page in a real browser: an audio file made by ffmpeg uploaded with its progress shown,
// then listed with the quota meter moved; files refused in words (not audio, by the server; too
// large, before sending); a track renamed and deleted; a station added (a YouTube link refused
// under its field); a music setting saved, and a bad one named under its field.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { fileTooLarge, MUSIC_MESSAGES, MusicSettingsViewSchema } from '../../src/shared/music';
import { ffmpegAudio } from '../helpers/audio';
import { browserSuite, toastWith, VIEWPORTS } from './helpers';

/** One upload at most 1 MB here, so the page's own size check can be seen. */
const MAX_FILE_MB = 1;
const harness = browserSuite({ MUSIC_MAX_FILE_MB: String(MAX_FILE_MB), MUSIC_QUOTA_MB: '20' });
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

/** Signs in and opens the Music page of the demo guild. */
async function openMusic(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const page = await harness().openSignedIn(`/server/${guildId()}/music`, { viewport });
  await page.getByRole('heading', { name: 'Music', level: 1 }).waitFor();
  return page;
}

/**
 * Records every value the upload progress bars show, from now on (an upload on loopback is quick).
 * A string: the test runner's transform would name the functions with a helper the page lacks.
 */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const seen = [];
    window.uploadProgress = seen;
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('progress[aria-label^="Uploading"]')) seen.push({ value: bar.value, max: bar.max });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['value'] });
  })()`);
}

/** The progress values recorded so far. */
const progressSeen = (page: Page) => page.evaluate(() => (window as unknown as { uploadProgress: Array<{ value: number; max: number }> }).uploadProgress);

describe('Music page', () => {
  test('an upload shows its progress, then the track is listed and the quota meter moves; rename and delete', async () => {
    const page = await openMusic();
    await page.getByText('No tracks yet').waitFor();
    const quota = page.getByTestId('music-quota');
    await quota.filter({ hasText: '0 bytes of 20 MB used' }).waitFor();

    const wav = await ffmpegAudio('wav', 3, { title: 'Concert A' });
    await recordProgress(page);
    // Slow uploads down so the bar is seen part-way through.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await page.getByTestId('music-upload-input').setInputFiles({ name: 'concert-a.wav', mimeType: 'audio/wav', buffer: wav });
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads.getByText('Added as “Concert A”.').waitFor({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const seen = await progressSeen(page);
    assert.ok(seen.length > 0, 'a progress bar showed while the file was sent');
    assert.ok(
      seen.some(({ value, max }) => value > 0 && value < max),
      `the bar moved part-way: ${JSON.stringify(seen.slice(0, 10))}`,
    );

    const tracks = page.getByRole('list', { name: 'Library tracks' });
    const row = tracks.getByRole('listitem').filter({ hasText: 'Concert A' });
    await row.getByText(/0:03 · WAV · \d+ KB · uploaded by /).waitFor();
    await quota.filter({ hasText: /^\d+ KB of 20 MB used$/ }).waitFor();

    await page.getByRole('button', { name: 'Rename Concert A' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename track' });
    await dialog.getByLabel('Title').fill('Tuning note');
    await dialog.getByLabel('Artist').fill('The Orchestra');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toastWith(page, 'Track renamed');
    await tracks.getByText('The Orchestra').waitFor();

    await page.getByRole('button', { name: 'Delete Tuning note' }).click();
    await page.getByRole('dialog', { name: 'Delete track' }).getByRole('button', { name: 'Delete' }).click();
    await toastWith(page, 'Track deleted');
    await page.getByText('No tracks yet').waitFor();
    await quota.filter({ hasText: '0 bytes of 20 MB used' }).waitFor();
  });

  test('a text file is refused with the server’s sentence, a file over the limit before it is sent', async () => {
    const page = await openMusic(VIEWPORTS.mobile);
    await page.getByText('No tracks yet').waitFor();
    const input = page.getByTestId('music-upload-input');
    await input.setInputFiles({ name: 'notes.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('Not a song, only words.\n'.repeat(40)) });
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await uploads.getByText(`notes.mp3 was not added: ${MUSIC_MESSAGES.notAudio}`).waitFor();

    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/music/library')) requests.push(request.url());
    });
    await input.setInputFiles({ name: 'huge.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(MAX_FILE_MB * 1024 * 1024 + 1) });
    await uploads.getByText(`huge.wav was not added: ${fileTooLarge(MAX_FILE_MB * 1024 * 1024)}`).waitFor();
    assert.deepEqual(requests, [], 'nothing was sent for the file over the limit');
    await page.getByText('No tracks yet').waitFor();
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(scrolls, false, 'the page does not scroll sideways at 375 px');
  });

  test('stations: a YouTube link is refused under its field; a stream is added, edited and deleted', async () => {
    const page = await openMusic();
    await page.getByText('No stations yet').waitFor();
    await page.getByRole('button', { name: 'Add station' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add station' });
    await dialog.getByLabel('Station name').fill('Lofi');
    await dialog.getByLabel('Stream address').fill('https://www.youtube.com/watch?v=jfKfPfyJRdk');
    await dialog.getByRole('button', { name: 'Add station' }).click();
    await dialog.getByText(MUSIC_MESSAGES.youtube).waitFor();
    await dialog.getByLabel('Stream address').fill('http://93.184.216.34/lofi.mp3');
    await dialog.getByRole('button', { name: 'Add station' }).click();
    await toastWith(page, 'Station added');
    const stations = page.getByRole('list', { name: 'Radio stations' });
    await stations.getByRole('listitem').filter({ hasText: 'Lofi' }).getByText('http://93.184.216.34/lofi.mp3').waitFor();

    await page.getByRole('button', { name: 'Edit Lofi' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit station' });
    await edit.getByLabel('Station name').fill('Lofi Radio');
    await edit.getByRole('button', { name: 'Save station' }).click();
    await toastWith(page, 'Station saved');
    await stations.getByText('Lofi Radio').waitFor();

    await page.getByRole('button', { name: 'Delete Lofi Radio' }).click();
    await page.getByRole('dialog', { name: 'Delete station' }).getByRole('button', { name: 'Delete' }).click();
    await toastWith(page, 'Station deleted');
    await page.getByText('No stations yet').waitFor();
  });

  test('settings: a bad value is named under its field; a good one is saved', async () => {
    const page = await openMusic();
    const form = page.getByRole('form', { name: 'Music settings' });
    await form.getByLabel('Vote-skip ratio').fill('5');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Save Failed');
    await form.getByText(/must be (at most|between)/).waitFor();
    await form.getByLabel('Vote-skip ratio').fill('0.75');
    await form.getByLabel('Default volume').fill('110');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await toastWith(page, 'Settings Saved');
    await form.getByText('All changes saved.').waitFor();
    const saved = MusicSettingsViewSchema.parse(await page.evaluate(async (id) => (await fetch(`/api/servers/${id}/music/settings`)).json(), guildId()));
    assert.equal(saved.musicVoteSkipRatio, 0.75);
    assert.equal(saved.musicDefaultVolume, 110);
  });
});
