// What the music tests share: switching music on, uploading tones, members joining voice, and
// what the sandbox's voice server heard in a channel (its own report type).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { ChannelAudioReport } from '../../src/sandbox/voice';
import { ffmpegAudio } from '../helpers/audio';
import type { Harness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

/** The music helpers bound to a harness (and, by default, the demo guild's voice channel). */
export function musicKit(h: () => Harness) {
  const guildId = () => h().guildId;
  const lounge = () => h().demo.channels.voice;
  const origin = () => h().product.config.publicUrl;

  /** What `channelId` heard over the last `windowSeconds`. */
  async function heard(windowSeconds = 1.5, channelId = lounge()): Promise<ChannelAudioReport | undefined> {
    const { status, body } = await h().control<{ channels: ChannelAudioReport[] }>('GET', `/guilds/${guildId()}/voice/audio?windowSeconds=${windowSeconds}`);
    assert.equal(status, 200);
    return body.channels.find((channel) => channel.channelId === channelId);
  }

  /** Waits until the channel hears a tone near `hz`. */
  function hears(hz: number, timeoutMs = 8000, channelId = lounge()): Promise<ChannelAudioReport> {
    return waitFor(
      async () => {
        const channel = await heard(1.5, channelId);
        return channel?.speaking && channel.dominantHz !== null && Math.abs(channel.dominantHz - hz) <= 15 ? channel : null;
      },
      timeoutMs,
      `the voice channel to hear ${hz} Hz`,
    );
  }

  /** Waits until the channel is quiet (the bot stopped speaking). */
  function silent(timeoutMs = 5000) {
    return waitFor(async () => (await heard(0.5))?.speaking === false || undefined, timeoutMs, 'the voice channel to go quiet');
  }

  const admin = () => h().signIn(h().demo.adminUserId);

  /** Switches music on in Bot Settings as an admin. */
  async function enableMusic(): Promise<void> {
    const session = await admin();
    const response = await session.agent.put(`/api/servers/${guildId()}/settings`).set('Origin', origin()).send({ musicEnabled: true });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  }

  /** Uploads `bytes` (or a tone) to the library as the dashboard does; answers the track's id. */
  async function upload(title: string, bytes: Buffer | Promise<Buffer>, name = `${title}.mp3`): Promise<number> {
    const session = await admin();
    const response = await session.agent
      .post(`/api/servers/${guildId()}/music/library?name=${encodeURIComponent(name)}`)
      .set('Origin', origin())
      .set('Content-Type', 'application/octet-stream')
      .send(await bytes);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return (response.body as { id: number }).id;
  }

  /** Uploads a tone of `seconds` at `hz`, titled `title`. */
  const uploadTone = (hz: number, seconds: number, title: string) => upload(title, ffmpegAudio('mp3', seconds, { title }, hz));

  /** A member joins (or, with null, leaves) voice, and the bot has seen it. */
  async function joinVoice(userId: string, channelId: string | null = lounge()): Promise<void> {
    const { status } = await h().control('POST', `/guilds/${guildId()}/voice`, { userId, channelId });
    assert.equal(status, 200);
    const guild = () => h().product.client.guilds.cache.get(guildId());
    await waitFor(() => (guild()?.voiceStates.cache.get(userId)?.channelId ?? null) === channelId, 5000, 'the bot to see the voice state');
  }

  /** The voice channel the bot is in, per the sandbox. */
  const botChannel = () => h().world.requireGuild(guildId()).voice.get(h().world.botUserId)?.channelId ?? null;

  return { guildId, lounge, heard, hears, silent, admin, enableMusic, upload, uploadTone, joinVoice, botChannel };
}

/**
 * A local HTTP server standing in for internet radio, for the file's tests: `handle` answers each
 * request. Returns the getter of its address (for the tests, and for playlists naming it).
 */
export function useStreamServer(handle: (request: IncomingMessage, response: ServerResponse) => void): () => string {
  let server: Server | undefined;
  let base = '';
  before(async () => {
    server = createServer(handle);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server?.closeAllConnections();
    server?.close();
  });
  return () => base;
}
