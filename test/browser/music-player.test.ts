// The Music page's player panel against the player's contract (src/shared/music-player.ts), with the
// server's answers played by the test: the progress bar moves while playing and stops when paused,
// the controls send what the contract says, the queue reorders from the keyboard (focus stays on
// the moved track), a stream shows Live, a refusal shows the server's sentence, and Stop asks first.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page, Route } from 'playwright-core';
import type { PlayerTrack, PlayerView } from '../../src/shared/music-player';
import { browserSuite, pick, toastWith } from './helpers';

const harness = browserSuite();
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

const track = (id: string, title: string, durationSeconds: number | null): PlayerTrack => ({
  id,
  title,
  kind: durationSeconds === null ? 'stream' : 'library',
  durationSeconds,
  requestedBy: { id: '1', name: 'Alex' },
});

/** A player the test drives: its state, the requests the page sent, and a refusal to answer next. */
interface FakePlayer {
  view: PlayerView;
  startedAt: number;
  calls: string[];
  refuseNext?: { status: number; message: string };
}

/** The view as the server would answer now: the position counted on while playing. */
function answer(player: FakePlayer): PlayerView {
  const now = Date.now();
  const elapsed = player.view.status === 'playing' ? (now - player.startedAt) / 1000 : 0;
  return { ...player.view, positionSeconds: player.view.positionSeconds + elapsed, at: new Date(now).toISOString() };
}

/** Answers the page's player routes from `player`. */
async function fakePlayer(page: Page, view: PlayerView): Promise<FakePlayer> {
  const player: FakePlayer = { view, startedAt: Date.now(), calls: [] };
  const settle = () => {
    player.view = answer(player);
    player.startedAt = Date.now();
  };
  const handle = async (route: Route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname.replace(/^.*\/music/, '');
    const body: unknown = request.postData() ? JSON.parse(request.postData() ?? '{}') : undefined;
    if (request.method() !== 'GET') player.calls.push(`${request.method()} ${path}${body ? ` ${JSON.stringify(body)}` : ''}`);
    if (request.method() !== 'GET' && player.refuseNext) {
      const { status, message } = player.refuseNext;
      player.refuseNext = undefined;
      await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ error: 'refused', message }) });
      return;
    }
    settle();
    const v = player.view;
    const input = (body ?? {}) as { volume?: number; mode?: PlayerView['loop']; entryId?: string; to?: number };
    if (path === '/player/pause') player.view = { ...v, status: 'paused' };
    else if (path === '/player/resume') player.view = { ...v, status: 'playing' };
    else if (path === '/player/skip') player.view = { ...v, current: v.queue[0] ?? null, queue: v.queue.slice(1), positionSeconds: 0 };
    else if (path === '/player/stop') player.view = { ...v, status: 'idle', current: null, queue: [], channel: null, positionSeconds: 0 };
    else if (path === '/player/volume') player.view = { ...v, volume: input.volume ?? v.volume };
    else if (path === '/player/loop') player.view = { ...v, loop: input.mode ?? v.loop };
    else if (path === '/queue/move') {
      const queue = v.queue.filter((entry) => entry.id !== input.entryId);
      const moved = v.queue.find((entry) => entry.id === input.entryId);
      if (moved) queue.splice((input.to ?? 1) - 1, 0, moved);
      player.view = { ...v, queue };
    } else if (path === '/queue') {
      const { channelId } = input as { channelId?: string };
      player.view = { ...v, status: 'playing', current: track('q', 'Queued', null), channel: channelId ? { id: channelId, name: 'Lounge' } : v.channel };
    } else if (request.method() === 'DELETE') player.view = { ...v, queue: v.queue.filter((entry) => `/queue/${entry.id}` !== path) };
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer(player)) });
  };
  await page.route('**/api/servers/*/music/player**', handle);
  await page.route('**/api/servers/*/music/queue**', handle);
  return player;
}

const playing = (): PlayerView => ({
  status: 'playing',
  channel: { id: '2', name: 'Lounge' },
  current: track('a', 'Concert A', 125),
  positionSeconds: 10,
  at: new Date().toISOString(),
  volume: 80,
  loop: 'off',
  queue: [track('b', 'Second Song', 200), track('c', 'Third Song', 61)],
  enabled: true,
});

/** Opens the Music page with the fake player answering. */
async function openWith(view: PlayerView): Promise<{ page: Page; player: FakePlayer }> {
  const page = await harness().openSignedIn('/');
  const player = await fakePlayer(page, view);
  await page.goto(`/server/${guildId()}/music`);
  await page.getByRole('heading', { name: 'Music', level: 1 }).waitFor();
  return { page, player };
}

/** The seconds the progress line shows now. */
async function shownSeconds(page: Page): Promise<number> {
  const text = await page.getByTestId('music-position').locator('span').first().textContent();
  const [minutes, seconds] = (text ?? '').split(':').map(Number);
  return (minutes ?? 0) * 60 + (seconds ?? 0);
}

describe('Music player panel', () => {
  test('now playing moves while playing and stops when paused; volume, loop, reorder, remove, skip and stop', async () => {
    const { page, player } = await openWith(playing());
    await page.getByTestId('now-playing-title').filter({ hasText: 'Concert A' }).waitFor();
    await page.getByText('Asked for by Alex · in 🔊 Lounge').waitFor();
    const start = await shownSeconds(page);
    await page.waitForFunction(
      (from) => {
        const [m, s] = (document.querySelector('[data-testid="music-position"] span')?.textContent ?? '').split(':').map(Number);
        return (m ?? 0) * 60 + (s ?? 0) >= from + 2;
      },
      start,
      { timeout: 5000 },
    );

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('player-status').filter({ hasText: 'Paused' }).waitFor();
    const paused = await shownSeconds(page);
    // Two polls later the position is the same.
    await page.waitForResponse((response) => response.url().endsWith('/music/player') && response.request().method() === 'GET');
    await page.waitForResponse((response) => response.url().endsWith('/music/player') && response.request().method() === 'GET');
    assert.equal(await shownSeconds(page), paused, 'the bar stands still while paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('player-status').filter({ hasText: 'Playing' }).waitFor();

    const volume = page.getByRole('slider', { name: 'Volume' });
    await volume.focus();
    await page.keyboard.press('ArrowRight');
    await page.getByText('81 %').waitFor();
    await page.getByRole('group', { name: 'Loop' }).getByRole('button', { name: 'Track' }).click();
    await page.getByRole('group', { name: 'Loop' }).getByRole('button', { name: 'Track', pressed: true }).waitFor();

    const upNext = page.getByRole('list', { name: 'Up next' });
    await page.getByRole('button', { name: 'Move Third Song up' }).focus();
    await page.keyboard.press('Enter');
    await upNext.getByRole('listitem').first().filter({ hasText: 'Third Song' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move Third Song down');
    await page.getByRole('button', { name: 'Remove Second Song from the queue' }).click();
    await upNext.getByText('Second Song').waitFor({ state: 'detached' });

    player.refuseNext = { status: 403, message: 'Only a DJ can skip without a vote.' };
    await page.getByRole('button', { name: 'Skip' }).click();
    await toastWith(page, 'Only a DJ can skip without a vote.');
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.getByTestId('now-playing-title').filter({ hasText: 'Third Song' }).waitFor();
    await page.getByText('The queue is empty').waitFor();

    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('dialog', { name: 'Stop the music?' }).getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Nothing is playing…').waitFor();
    assert.deepEqual(player.calls, [
      'POST /player/pause',
      'POST /player/resume',
      'PUT /player/volume {"volume":81}',
      'PUT /player/loop {"mode":"track"}',
      'POST /queue/move {"entryId":"c","to":1}',
      'DELETE /queue/b',
      'POST /player/skip',
      'POST /player/skip',
      'POST /player/stop',
    ]);
  });

  test('a stream shows Live instead of a bar', async () => {
    const { page } = await openWith({ ...playing(), current: track('s', 'Night Radio', null), queue: [] });
    await page.getByText('Live', { exact: true }).waitFor();
    await page.getByText(/Playing for \d+:\d\d/).waitFor();
    assert.equal(await page.getByTestId('music-position').count(), 0);
  });

  test('playing a station with the bot in no voice channel asks which one, and sends it', async () => {
    const idle: PlayerView = { ...playing(), status: 'idle', channel: null, current: null, queue: [], positionSeconds: 0 };
    const { page, player } = await openWith(idle);
    await page.getByText('Nothing is playing…').waitFor();
    const created = await page.evaluate(async (id) => {
      const response = await fetch(`/api/servers/${id}/music/stations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Night Radio', url: 'http://93.184.216.34/night.mp3' }),
      });
      return (await response.json()) as { id: number };
    }, guildId());
    await page.reload();
    await page.getByRole('button', { name: 'Play Night Radio' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pick a voice channel' });
    await dialog.getByRole('button', { name: 'Join and play' }).click();
    await dialog.getByText('Pick a voice channel.').waitFor();
    await pick(page, 'Voice channel', 'Lounge', /Lounge/);
    await dialog.getByRole('button', { name: 'Join and play' }).click();
    await toastWith(page, 'Night Radio is playing.');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(player.calls.length, 1);
    assert.match(player.calls[0] ?? '', new RegExp(`^POST /queue \\{"stationId":${created.id},"channelId":"\\d+"\\}$`));
  });
});
