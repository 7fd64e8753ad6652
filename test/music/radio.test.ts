// The 24/7 radio: a radio channel and a saved station in the Music settings, and the bot plays the
// station there at once, with nobody listening, and stays; what cannot work is refused by field.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { musicState } from '../../src/features/music/state';
import { ffmpegAudio } from '../helpers/audio';
import { useHarness } from '../helpers/harness';
import { musicKit, useStreamServer } from './kit';

const h = useHarness({ ALLOW_PRIVATE_WEBHOOKS: '1' });
const { guildId, lounge, hears, enableMusic, botChannel } = musicKit(h);

let tone: Buffer = Buffer.alloc(0);
before(async () => {
  tone = await ffmpegAudio('mp3', 120, {}, 550);
});
const streamBase = useStreamServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'audio/mpeg' });
  response.end(tone);
});

describe('the 24/7 radio', () => {
  test('a station needs a radio channel and must be saved here: refused by field, nothing saved', async () => {
    await enableMusic();
    const admin = await h().signIn(h().demo.adminUserId);
    const station = await admin.post(`/api/servers/${guildId()}/music/stations`, { name: 'Always On', url: `${streamBase()}/live.mp3` });
    assert.equal(station.status, 200, JSON.stringify(station.body));
    const noChannel = await admin.put(`/api/servers/${guildId()}/music/settings`, { musicRadioStationId: station.body.id });
    assert.equal(noChannel.status, 400);
    assert.match(noChannel.body.fields.musicRadioChannelId, /is needed to play the 24\/7 station/);
    const unknown = await admin.put(`/api/servers/${guildId()}/music/settings`, { musicRadioChannelId: lounge(), musicRadioStationId: 999_999 });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.fields.musicRadioStationId, 'Radio station is not a station saved in this server. Pick one of its stations.');
    assert.equal((await admin.get(`/api/servers/${guildId()}/music/settings`)).body.musicRadioStationId, null);
  });

  test('saved, the bot plays the station in the radio channel at once, with nobody there (never leaving it for that: unit-tested)', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const stations = await admin.get(`/api/servers/${guildId()}/music/stations`);
    const stationId = (stations.body as { id: number; name: string }[]).find((s) => s.name === 'Always On')?.id;
    const saved = await admin.put(`/api/servers/${guildId()}/music/settings`, { musicRadioChannelId: lounge(), musicRadioStationId: stationId });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    await hears(550, 10_000);
    assert.equal(botChannel(), lounge());
    const player = musicState.of(h().product.services).players.get(guildId());
    assert.equal(player?.queue.current?.title, 'Always On');
  });
});
