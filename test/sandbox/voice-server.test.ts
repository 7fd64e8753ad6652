// The sandbox's voice server against the real @discordjs/voice: the bot joins a voice channel through
// its gateway op 4, connects over wss and UDP, plays generated tones, and the control API says what
// the channel heard. Also Discord's refusals and the events a player must survive (a voice server
// change, a kick).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import {
  AudioPlayerStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  joinVoiceChannel,
  StreamType,
  VoiceConnectionDisconnectReason,
  VoiceConnectionStatus,
  type AudioPlayer,
  type VoiceConnection,
} from '@discordjs/voice';
import { WebSocket } from 'ws';
import { encryptRtpSize, rtpHeader } from '../../src/sandbox/voice/rtp';
import { waitFor } from '../helpers/wait';
import type { ChannelAudioReport } from '../../src/sandbox/voice';
import { control, startBotHarness, type BotHarness } from './helpers';

/** What the control API reports a channel heard (the sandbox's own report type). */
type HeardChannel = ChannelAudioReport;

/** `seconds` of a sine at `hz` as 48 kHz stereo s16le, about -8.7 dBFS. */
function tone(hz: number, seconds: number): Readable {
  const frames = 48_000 * seconds;
  const pcm = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i += 1) {
    const sample = Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / 48_000));
    pcm.writeInt16LE(sample, i * 4);
    pcm.writeInt16LE(sample, i * 4 + 2);
  }
  return Readable.from([pcm]);
}

describe('sandbox voice server', () => {
  let h: BotHarness;
  let connection: VoiceConnection | null = null;
  let player: AudioPlayer;
  before(async () => {
    h = await startBotHarness({ memberCount: 20 });
    player = createAudioPlayer();
  });
  after(async () => {
    player.stop(true);
    connection?.destroy();
    await h.close();
  });
  const demo = () => h.sandbox.world.demo;
  const botId = () => h.sandbox.world.botUserId;
  const botChannel = () => h.sandbox.world.requireGuild(demo().guildId).voice.get(botId())?.channelId ?? null;
  const join = (channelId: string) => {
    const guild = h.client.guilds.cache.get(demo().guildId);
    assert.ok(guild);
    const joined = joinVoiceChannel({ channelId, guildId: guild.id, adapterCreator: guild.voiceAdapterCreator });
    joined.on('error', () => undefined);
    connection = joined;
    return joined;
  };
  const heard = async (windowSeconds = 3) => {
    const { status, body } = await control<{ channels: HeardChannel[] }>(
      h.sandbox,
      'GET',
      `/guilds/${demo().guildId}/voice/audio?windowSeconds=${windowSeconds}`,
    );
    assert.equal(status, 200);
    return body.channels.find((c) => c.channelId === demo().channels.voice);
  };
  const play = async (hz: number, seconds: number) => {
    player.play(createAudioResource(tone(hz, seconds), { inputType: StreamType.Raw }));
    await entersState(player, AudioPlayerStatus.Playing, 5000);
  };
  const near = (value: number | null | undefined, target: number, tolerance: number) => typeof value === 'number' && Math.abs(value - target) <= tolerance;

  it('joins by op 4, reaches Ready over wss and UDP, and the channel hears 440 Hz for 2 s, then 660 Hz', async () => {
    const voice = join(demo().channels.voice);
    await entersState(voice, VoiceConnectionStatus.Ready, 10_000);
    assert.equal(botChannel(), demo().channels.voice);
    voice.subscribe(player);

    await play(440, 2);
    const speaking = await waitFor(async () => (await heard())?.speaking, 3000, 'the channel to hear the bot speaking');
    assert.equal(speaking, true);
    await entersState(player, AudioPlayerStatus.Idle, 10_000);
    // The last packets are on their way after the player goes idle; the tone plus ~4 silence frames.
    const first = await waitFor(async () => {
      const channel = await heard();
      return channel && channel.seconds >= 2 && !channel.speaking ? channel : null;
    }, 3000);
    assert.ok(first.seconds <= 2.3, `heard ${first.seconds} s`);
    assert.ok(near(first.dominantHz, 440, 10), `dominant ${first.dominantHz} Hz`);
    assert.ok(first.level !== null && first.level > -20 && first.level < -5, `level ${first.level} dBFS`);
    assert.equal(first.decryptFailures, 0);
    assert.ok(first.packets >= 100);

    assert.equal((await control(h.sandbox, 'DELETE', `/guilds/${demo().guildId}/voice/audio`)).status, 204);
    assert.equal(await heard(), undefined);
    await play(660, 2);
    await entersState(player, AudioPlayerStatus.Idle, 10_000);
    const second = await waitFor(async () => {
      const channel = await heard();
      return channel && channel.seconds >= 2 ? channel : null;
    }, 3000);
    assert.ok(second.seconds <= 2.3, `heard ${second.seconds} s`);
    assert.ok(near(second.dominantHz, 660, 10), `dominant ${second.dominantHz} Hz`);
  });

  it('refuses an identify with a wrong token (4004) or another session (4006)', async () => {
    const grant = h.sandbox.voice.sessions.grant(demo().guildId, botId());
    assert.ok(grant);
    const identify = async (d: Record<string, unknown>) => {
      const ws = new WebSocket(`wss://${h.sandbox.voiceEndpoint}/?v=8`, { ca: readFileSync(h.sandbox.voiceCaFile) });
      ws.on('open', () => ws.send(JSON.stringify({ op: 0, d: { server_id: demo().guildId, user_id: botId(), max_dave_protocol_version: 1, ...d } })));
      return new Promise<number>((resolve) => ws.once('close', (code: number) => resolve(code)));
    };
    assert.equal(await identify({ session_id: grant.sessionId, token: 'not-the-token' }), 4004);
    assert.equal(await identify({ session_id: 'another-session', token: grant.token }), 4006);
  });

  it('follows a voice server change: the client connects anew and the tone goes on', async () => {
    const voice = connection;
    assert.ok(voice);
    await play(440, 6);
    const ssrcsBefore = h.sandbox.voice.sessions.linksOf(demo().guildId, botId()).map((link) => link.ssrc);
    assert.equal(ssrcsBefore.length, 1);
    const reconnecting = entersState(voice, VoiceConnectionStatus.Connecting, 5000);
    assert.equal((await control(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice/bot/server-change`)).status, 204);
    await reconnecting;
    await entersState(voice, VoiceConnectionStatus.Ready, 10_000);
    const ssrcsAfter = h.sandbox.voice.sessions.linksOf(demo().guildId, botId()).map((link) => link.ssrc);
    assert.equal(ssrcsAfter.length, 1, 'one voice connection: the earlier one was replaced');
    assert.notDeepEqual(ssrcsAfter, ssrcsBefore);
    await control(h.sandbox, 'DELETE', `/guilds/${demo().guildId}/voice/audio`);
    const after = await waitFor(
      async () => {
        const channel = await heard(1);
        return channel && channel.seconds >= 1 ? channel : null;
      },
      5000,
      'audio after the new connection',
    );
    assert.ok(near(after.dominantHz, 440, 10), `dominant ${after.dominantHz} Hz`);
    assert.equal(after.decryptFailures, 0);
    player.stop(true);
  });

  it('kicking the bot closes its voice socket with 4014: the connection is Disconnected and the bot out of voice', async () => {
    const voice = connection;
    assert.ok(voice);
    const disconnected = entersState(voice, VoiceConnectionStatus.Disconnected, 5000);
    assert.equal((await control(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice/bot/kick`)).status, 204);
    await disconnected;
    const state = voice.state;
    assert.equal(state.status, VoiceConnectionStatus.Disconnected);
    assert.equal(state.reason, VoiceConnectionDisconnectReason.WebSocketClose);
    assert.equal(state.reason === VoiceConnectionDisconnectReason.WebSocketClose ? state.closeCode : null, 4014);
    assert.equal(botChannel(), null);
    assert.equal((await control(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice/bot/kick`)).status, 409);
    voice.destroy();
    connection = null;
  });

  it('does not answer a join where the bot may not connect (no Connect, the channel full); a later join is answered; leaving clears its state', async () => {
    const guildId = demo().guildId;
    const lounge = h.sandbox.world.requireGuild(guildId).channels.get(demo().channels.voice);
    assert.ok(lounge);
    h.sandbox.world.structure.updateChannel(lounge, { userLimit: 1 });
    const seat = (channelId: string | null) => control(h.sandbox, 'POST', `/guilds/${guildId}/voice`, { userId: demo().plainMemberId, channelId });
    assert.equal((await seat(lounge.id)).status, 200);
    const serverUpdates: string[] = [];
    h.client.on('raw', (packet: { t?: string; d?: { endpoint?: string } }) => {
      if (packet.t === 'VOICE_SERVER_UPDATE') serverUpdates.push(String(packet.d?.endpoint));
    });
    const voice = join(demo().channels.staffVoice);
    // Op 4s are read in order on the one gateway connection: once the last is answered, the refused
    // ones were read before it.
    voice.rejoin({ channelId: lounge.id, selfDeaf: true, selfMute: false });
    voice.rejoin({ channelId: demo().channels.afk, selfDeaf: true, selfMute: false });
    await entersState(voice, VoiceConnectionStatus.Ready, 10_000);
    assert.equal(serverUpdates.length, 1);
    assert.equal(botChannel(), demo().channels.afk);
    assert.equal((await seat(null)).status, 200);
    h.sandbox.world.structure.updateChannel(lounge, { userLimit: 0 });
    const left = waitFor(() => botChannel() === null, 5000, 'the bot out of voice');
    voice.destroy();
    connection = null;
    await left;
    await waitFor(() => (h.client.guilds.cache.get(guildId)?.members.me?.voice.channelId ?? null) === null, 5000, 'the client to see it');
  });

  it('does not hear a server-muted bot (its packets are refused), and counts forged packets as decrypt failures', async () => {
    const voice = join(demo().channels.voice);
    await entersState(voice, VoiceConnectionStatus.Ready, 10_000);
    voice.subscribe(player);
    await control(h.sandbox, 'DELETE', `/guilds/${demo().guildId}/voice/audio`);
    const mute = (on: boolean) =>
      control(h.sandbox, 'POST', `/guilds/${demo().guildId}/voice/server`, { actorId: demo().adminUserId, userId: botId(), mute: on });
    assert.equal((await mute(true)).status, 200);
    await play(440, 1);
    await entersState(player, AudioPlayerStatus.Idle, 10_000);
    const muted = await waitFor(
      async () => {
        const channel = await heard();
        return channel && channel.packets >= 50 && channel.refusedPackets === channel.packets ? channel : null;
      },
      3000,
      'the muted packets',
    );
    assert.equal(muted.seconds, 0);
    assert.equal((await mute(false)).status, 200);

    const [link] = h.sandbox.voice.sessions.linksOf(demo().guildId, botId());
    assert.ok(link);
    const udp = createSocket('udp4');
    const forged = encryptRtpSize(rtpHeader(link.ssrc, 1, 960), Buffer.from([0xf8, 0xff, 0xfe]), randomBytes(32), 1);
    await new Promise<void>((resolve, reject) => udp.send(forged, h.sandbox.voice.udpPort, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
    udp.close();
    await waitFor(async () => (await heard())?.decryptFailures === 1, 3000, 'the forged packet counted');
  });

  it("closes the voice socket with 4014 when the bot's channel is deleted", async () => {
    const voice = connection;
    assert.ok(voice);
    const disconnected = entersState(voice, VoiceConnectionStatus.Disconnected, 5000);
    assert.equal((await control(h.sandbox, 'DELETE', `/channels/${demo().channels.voice}`)).status, 204);
    await disconnected;
    assert.equal(
      voice.state.status === VoiceConnectionStatus.Disconnected && voice.state.reason === VoiceConnectionDisconnectReason.WebSocketClose
        ? voice.state.closeCode
        : null,
      4014,
    );
    assert.equal(botChannel(), null);
  });
});
