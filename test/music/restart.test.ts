// A restart while music plays: the product saves where the player was as it stops; the next start
// rejoins the voice channel and resumes the queue, the file at its position (the second tone of
// the track is heard at once, not the first again), the tracks waiting after it still waiting.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { ChannelAudioReport } from '../../src/sandbox/voice';
import { ffmpegAudio } from '../helpers/audio';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';

const run = promisify(execFile);

/** An MP3 of 4 s at 440 Hz then 60 s at 660 Hz. */
async function twoTones(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'music-restart-'));
  const file = path.join(dir, 'two.mp3');
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=4',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=660:duration=60',
    '-filter_complex',
    'concat=n=2:v=0:a=1',
    '-metadata',
    'title=Two Tones',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '64k',
    '-y',
    file,
  ]);
  return readFile(file);
}

describe('music across a restart', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    // Forget what the channel heard before the restart: the report then holds only what comes after.
    assert.equal((await fetch(`${r.sandbox.url}/_sandbox/guilds/${demo().guildId}/voice/audio`, { method: 'DELETE' })).status, 204);
    await r.start();
  });
  after(() => r.close());

  const demo = () => r.sandbox.world.demo;
  const heard = async (windowSeconds = 1.5) => {
    const response = await fetch(`${r.sandbox.url}/_sandbox/guilds/${demo().guildId}/voice/audio?windowSeconds=${windowSeconds}`);
    const body = (await response.json()) as { channels: ChannelAudioReport[] };
    return body.channels.find((channel) => channel.channelId === demo().channels.voice);
  };
  const hears = (hz: number) =>
    waitFor(
      async () => {
        const channel = await heard();
        return channel?.speaking && channel.dominantHz !== null && Math.abs(channel.dominantHz - hz) <= 15 ? channel : null;
      },
      10_000,
      `the channel to hear ${hz} Hz`,
    );

  test('the bot rejoins and resumes the file at its position, with the queue after it', async () => {
    const admin = await r.signIn(demo().adminUserId);
    const origin = r.product().config.publicUrl;
    assert.equal((await admin.agent.put(`/api/servers/${demo().guildId}/settings`).set('Origin', origin).send({ musicEnabled: true })).status, 200);
    for (const [name, bytes] of [
      ['two.mp3', await twoTones()],
      ['next.mp3', await ffmpegAudio('mp3', 5, { title: 'Next Up' }, 330)],
    ] as const) {
      const uploaded = await admin.agent
        .post(`/api/servers/${demo().guildId}/music/library?name=${name}`)
        .set('Origin', origin)
        .set('Content-Type', 'audio/mpeg')
        .send(bytes);
      assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    }
    const member = demo().plainMemberId;
    assert.equal(
      (
        await fetch(`${r.sandbox.url}/_sandbox/guilds/${demo().guildId}/voice`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: member, channelId: demo().channels.voice }),
        })
      ).status,
      200,
    );
    const slash = async (name: string, options: Record<string, string>) => {
      const response = await fetch(`${r.sandbox.url}/_sandbox/interactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ guildId: demo().guildId, channelId: demo().channels.general, userId: member, name, options }),
      });
      return ((await response.json()) as { content: string }).content;
    };
    await waitFor(
      () => r.product().client.guilds.cache.get(demo().guildId)?.voiceStates.cache.get(member)?.channelId === demo().channels.voice || undefined,
      5000,
    );
    assert.match(await slash('play', { query: 'two tones' }), /Now playing \*\*Two Tones\*\*/);
    assert.match(await slash('play', { query: 'next up' }), /Queued \*\*Next Up\*\* \(0:05\) at place 1\./);
    await hears(440);
    await hears(660);

    await r.stop();
    await waitFor(async () => (await heard(0.5))?.speaking === false || undefined, 5000, 'the channel to go quiet');
    await r.start();
    // Resumed past the first tone: the first audio after the restart is already 660 Hz.
    const first = await waitFor(
      async () => {
        const channel = await heard(1);
        // The first window that holds one of the two tones clearly (its onset smears the spectrum).
        const near = (hz: number) => channel?.dominantHz !== null && channel?.dominantHz !== undefined && Math.abs(channel.dominantHz - hz) <= 15;
        return channel?.speaking && channel.seconds >= 0.5 && (near(440) || near(660)) ? channel : null;
      },
      15_000,
      'the channel to hear the bot again',
    );
    assert.ok(first.dominantHz !== null && Math.abs(first.dominantHz - 660) <= 15, `first heard ${first.dominantHz} Hz`);
    assert.equal(first.decryptFailures, 0);
    const view = await (await r.signIn(demo().adminUserId)).agent.get(`/api/servers/${demo().guildId}/music/player`);
    assert.equal(view.status, 200);
    assert.equal(view.body.current.title, 'Two Tones');
    assert.ok(view.body.positionSeconds > 4, `resumed at ${view.body.positionSeconds} s`);
    assert.deepEqual(
      view.body.queue.map((track: { title: string }) => track.title),
      ['Next Up'],
    );
  });
});
