// Music through the sandbox, end to end: a member in a voice channel runs /play (slash and text)
// and the sandbox's voice server hears the library's tone; skip, pause, volume measured as a level.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChannelAudioReport } from '../../src/sandbox/voice';
import { ffmpegAudio } from '../helpers/audio';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const h = useHarness({ ALLOW_PRIVATE_WEBHOOKS: '1' });
const guildId = () => h().guildId;
const lounge = () => h().demo.channels.voice;

/** What the bot's voice channel heard over the last `windowSeconds`. */
async function heard(windowSeconds = 1.5): Promise<ChannelAudioReport | undefined> {
  const { status, body } = await h().control<{ channels: ChannelAudioReport[] }>('GET', `/guilds/${guildId()}/voice/audio?windowSeconds=${windowSeconds}`);
  assert.equal(status, 200);
  return body.channels.find((channel) => channel.channelId === lounge());
}

/** Waits until the channel hears a tone near `hz`. */
function hears(hz: number, timeoutMs = 8000): Promise<ChannelAudioReport> {
  return waitFor(
    async () => {
      const channel = await heard();
      return channel?.speaking && channel.dominantHz !== null && Math.abs(channel.dominantHz - hz) <= 15 ? channel : null;
    },
    timeoutMs,
    `the voice channel to hear ${hz} Hz`,
  );
}

async function admin() {
  return h().signIn(h().demo.adminUserId);
}

/** Uploads a tone to the library as the dashboard does. */
async function uploadTone(hz: number, seconds: number, title: string) {
  const session = await admin();
  const bytes = await ffmpegAudio('mp3', seconds, { title }, hz);
  const response = await session.agent
    .post(`/api/servers/${guildId()}/music/library?name=${encodeURIComponent(`${title}.mp3`)}`)
    .set('Origin', h().product.config.publicUrl)
    .set('Content-Type', 'audio/mpeg')
    .send(bytes);
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

async function joinVoice(userId: string, channelId: string | null = lounge()) {
  const { status } = await h().control('POST', `/guilds/${guildId()}/voice`, { userId, channelId });
  assert.equal(status, 200);
}

describe('music playback through the sandbox voice server', () => {
  test('switched on, a member in voice plays a library track with /play and the channel hears it', async () => {
    const session = await admin();
    const on = await session.agent.put(`/api/servers/${guildId()}/settings`).set('Origin', h().product.config.publicUrl).send({ musicEnabled: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await uploadTone(440, 30, 'Concert A');
    const member = h().demo.plainMemberId;
    await joinVoice(member);
    const reply = await h().slash(member, 'play', { query: 'concert a' });
    assert.match(reply.body.content, /Now playing \*\*Concert A\*\*/);
    const first = await hears(440);
    assert.equal(first.decryptFailures, 0);
  });
});
