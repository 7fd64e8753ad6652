// Music through the real player (sandbox voice server): the Bot Settings switch turns music commands
// on, a library track is played from the Music page into a voice channel picked in the dialog, and
// now playing shows it with the progress moving; pause stops the bar, resume moves it again, skip
// and stop leave the player idle.
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ffmpegAudio } from '../helpers/audio';
import { browserSuite, pick, toastWith } from './helpers';

const harness = browserSuite();
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

/** The seconds the progress line shows, read in the page. */
const positionIs = (page: Page, test: 'above' | 'equal', seconds: number) =>
  page.waitForFunction(
    ([mode, target]) => {
      const [m, s] = (document.querySelector('[data-testid="music-position"] span')?.textContent ?? '').split(':').map(Number);
      const shown = (m ?? 0) * 60 + (s ?? 0);
      return mode === 'above' ? shown > Number(target) : shown === Number(target);
    },
    [test, seconds] as const,
    { timeout: 10_000 },
  );

/** The seconds the progress line shows now. */
async function shown(page: Page): Promise<number> {
  const text = (await page.getByTestId('music-position').locator('span').first().textContent()) ?? '';
  const [minutes, seconds] = text.split(':').map(Number);
  return (minutes ?? 0) * 60 + (seconds ?? 0);
}

describe('Music playback from the dashboard', () => {
  test('switch music on, play a library track into a voice channel, pause, resume, skip and stop', async () => {
    const page = await harness().openSignedIn(`/server/${guildId()}/settings`);
    await page.getByRole('heading', { name: 'Bot Settings', level: 1 }).waitFor();
    const musicSwitch = page.getByRole('switch', { name: 'Music commands' });
    await musicSwitch.click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toastWith(page, /saved/i);
    await page.getByRole('switch', { name: 'Music commands', checked: true }).waitFor();

    await page.goto(`/server/${guildId()}/music`);
    await page.getByRole('heading', { name: 'Music', level: 1 }).waitFor();
    await page.getByText('Nothing is playing…').waitFor();
    const tone = await ffmpegAudio('wav', 30, { title: 'Long Tone' });
    await page.getByTestId('music-upload-input').setInputFiles({ name: 'long-tone.wav', mimeType: 'audio/wav', buffer: tone });
    await page.getByRole('list', { name: 'Uploads' }).getByText('Added as “Long Tone”.').waitFor();

    await page.getByRole('button', { name: 'Play Long Tone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pick a voice channel' });
    await pick(page, 'Voice channel', 'Lounge', /Lounge/);
    await dialog.getByRole('button', { name: 'Join and play' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('now-playing-title').filter({ hasText: 'Long Tone' }).waitFor({ timeout: 15_000 });
    await page.getByText(/in 🔊 Lounge/).waitFor();
    await page.getByTestId('player-status').filter({ hasText: 'Playing' }).waitFor({ timeout: 15_000 });
    await positionIs(page, 'above', 1);
    const before = await shown(page);
    await positionIs(page, 'above', before);

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('player-status').filter({ hasText: 'Paused' }).waitFor();
    const paused = await shown(page);
    // Two reads of the player later, the bar has not moved.
    for (let poll = 0; poll < 2; poll += 1) {
      await page.waitForResponse((response) => response.url().endsWith('/music/player') && response.request().method() === 'GET');
    }
    await positionIs(page, 'equal', paused);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('player-status').filter({ hasText: 'Playing' }).waitFor();
    await positionIs(page, 'above', paused);

    await page.getByRole('button', { name: 'Skip' }).click();
    await page.getByText('Nothing is playing…').waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Play Long Tone' }).click();
    await page.getByTestId('now-playing-title').filter({ hasText: 'Long Tone' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('dialog', { name: 'Stop the music?' }).getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Nothing is playing…').waitFor({ timeout: 15_000 });
  });
});
