// Internet radio through the sandbox: a local HTTP stream and a PLS playlist naming it, a saved
// station played with /radio, a stream that stalls (reconnected, then skipped, each said in the
// channel), and stream addresses the guard refuses.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { InvalidInput } from '../../src/core/errors';
import { resolveQuery } from '../../src/features/music/sources';
import { ffmpegAudio, silentMp3 } from '../helpers/audio';
import { useHarness } from '../helpers/harness';
import { musicKit, useStreamServer } from './kit';

const h = useHarness({ ALLOW_PRIVATE_WEBHOOKS: '1' });
const { guildId, hears, silent, enableMusic, joinVoice } = musicKit(h);

/** Requests of the stalling stream so far. */
let stallRequests = 0;
const audio: Record<'tone' | 'shortTone' | 'silence', Buffer> = { tone: Buffer.alloc(0), shortTone: Buffer.alloc(0), silence: Buffer.alloc(0) };
before(async () => {
  audio.tone = await ffmpegAudio('mp3', 60, { title: 'Radio' }, 550);
  audio.shortTone = await ffmpegAudio('mp3', 3, {}, 550);
  audio.silence = await silentMp3(60);
});
const streamBase = useStreamServer((request, response) => {
  if (request.url === '/live.mp3') {
    response.writeHead(200, { 'Content-Type': 'audio/mpeg' });
    response.end(audio.tone);
  } else if (request.url === '/radio.pls') {
    response.writeHead(200, { 'Content-Type': 'audio/x-scpls' });
    response.end(`[playlist]\nNumberOfEntries=2\nFile1=${streamBase()}/gone.mp3\nFile2=${streamBase()}/live.mp3\n`);
  } else if (request.url === '/silent.mp3') {
    response.writeHead(200, { 'Content-Type': 'audio/mpeg' });
    response.end(audio.silence);
  } else if (request.url === '/stall.mp3') {
    // Three seconds of audio, then the connection stays open and sends nothing: a stalled station.
    stallRequests += 1;
    response.writeHead(200, { 'Content-Type': 'audio/mpeg' });
    response.write(audio.shortTone);
  } else {
    response.writeHead(404).end();
  }
});

describe('internet radio', () => {
  test('a saved station whose address is a PLS playlist plays with /radio: the first stream that answers', async () => {
    await enableMusic();
    const session = await h().signIn(h().demo.adminUserId);
    const saved = await session.agent
      .post(`/api/servers/${guildId()}/music/stations`)
      .set('Origin', h().product.config.publicUrl)
      .send({ name: 'Local FM', url: `${streamBase()}/radio.pls` });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const member = h().demo.plainMemberId;
    await joinVoice(member);
    const reply = await h().slash(member, 'radio', { station: 'local fm' });
    assert.match(reply.body.content, /Now playing \*\*Local FM\*\* \(live\) in <#\d+>\./);
    await hears(550);
    assert.equal((await h().slash(member, 'stop')).body.content, 'Stopped, and the queue is empty.');
    await silent();
  });

  test('a stream that stalls is reconnected twice, each said in the channel, then skipped', async () => {
    const member = h().demo.plainMemberId;
    const general = h().demo.channels.general;
    const reply = await h().slash(member, 'play', { query: `${streamBase()}/stall.mp3` });
    assert.match(reply.body.content, /Now playing \*\*127\.0\.0\.1:\d+\/stall\.mp3\*\* \(live\)/);
    await hears(550);
    const reconnecting = await h().waitForMessage(general, (m) => /stopped sending audio; reconnecting\./.test(m.content), { timeoutMs: 15_000 });
    assert.equal(reconnecting.pinged.users.length + reconnecting.pinged.roles.length, 0);
    await h().waitForMessage(general, (m) => /“127\.0\.0\.1:\d+\/stall\.mp3” stopped sending audio; skipping it\./.test(m.content), { timeoutMs: 30_000 });
    assert.equal(stallRequests, 3, 'the first connection and two reconnects');
    await silent();
  });

  test('"Now playing" goes to the announce channel; a stream that only sends silence is noticed and reconnected', async () => {
    const member = h().demo.plainMemberId;
    const announcements = h().demo.channels.announcements;
    const admin = await h().signIn(h().demo.adminUserId);
    assert.equal((await admin.put(`/api/servers/${guildId()}/music/settings`, { musicAnnounceChannelId: announcements })).status, 200);
    const announcing = h().waitForMessage(announcements, (m) => m.bot && m.embeds[0]?.title === 'Now playing');
    const reconnecting = h().waitForMessage(h().demo.channels.general, (m) => /“127\.0\.0\.1:\d+\/silent\.mp3” went silent; reconnecting\./.test(m.content), {
      timeoutMs: 25_000,
    });
    await h().slash(member, 'play', { query: `${streamBase()}/silent.mp3` });
    const announced = await announcing;
    assert.match(announced.embeds[0]?.description ?? '', /^\*\*127\.0\.0\.1:\d+\/silent\.mp3\*\* \(live\)\nAsked for by \S+ in <#\d+>$/);
    assert.deepEqual(announced.pinged, { users: [], roles: [], everyone: false });
    await reconnecting;
    assert.equal((await h().slash(member, 'stop')).body.content, 'Stopped, and the queue is empty.');
  });

  test('a stream on a private address is refused unless the operator allows it; YouTube and Spotify links say why', async () => {
    const services = h().product.services;
    const strict = { ...services, config: { ...services.config, allowPrivateWebhooks: false } };
    const by = { id: h().demo.plainMemberId, name: 'member' };
    await assert.rejects(resolveQuery(strict, guildId(), `${streamBase()}/live.mp3`, by), (error: unknown) => {
      assert.ok(error instanceof InvalidInput);
      assert.match(error.message, /points to an address that is not public/);
      return true;
    });
    await assert.rejects(resolveQuery(services, guildId(), 'https://open.spotify.com/track/abc', by), /Spotify links are not played/);
    const allowed = await resolveQuery(services, guildId(), `${streamBase()}/live.mp3`, by);
    assert.deepEqual(allowed.source, { kind: 'stream', url: `${streamBase()}/live.mp3`, stationName: null });
  });
});
