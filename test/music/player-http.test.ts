// The Music page's player routes: the checks in order (401, 400, 403, 200), queuing a library track
// from the page into a voice channel it names, and the controls it drives (reorder, remove, loop,
// volume, pause, resume, skip, stop), each answering the player as it is then.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import { PlayerViewSchema, type PlayerView } from '../../src/shared/music-player';
import { useHarness } from '../helpers/harness';
import { musicKit } from './kit';

const h = useHarness();
const { guildId, lounge, hears, enableMusic, uploadTone } = musicKit(h);
const url = (path: string) => `/api/servers/${guildId()}/music${path}`;

describe('the player routes', () => {
  test('401 signed out, 400 a bad body naming the field, 403 a plain member, 200 an admin: idle, music off', async () => {
    assert.equal((await request(h().product.url).get(url('/player'))).status, 401);
    const admin = await h().signIn(h().demo.adminUserId);
    const bad = await admin.put(url('/player/volume'), { volume: 500 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.volume, 'Volume must be between 1 and 150.');
    const member = await h().signIn(h().demo.plainMemberId);
    assert.equal((await member.get(url('/player'))).status, 403);
    const idle = PlayerViewSchema.parse((await admin.get(url('/player')).expect(200)).body);
    assert.deepEqual(
      { status: idle.status, current: idle.current, queue: idle.queue, enabled: idle.enabled },
      { status: 'idle', current: null, queue: [], enabled: false },
    );
    const off = await admin.post(url('/queue'), { trackId: 1, channelId: lounge() });
    assert.equal(off.status, 409);
    assert.match(off.body.message, /Music commands are turned off in this server/);
  });

  test('the page queues tracks into the voice channel it names and drives the player', async () => {
    await enableMusic();
    const admin = await h().signIn(h().demo.adminUserId);
    const ids = [await uploadTone(440, 30, 'First'), await uploadTone(550, 30, 'Second'), await uploadTone(660, 30, 'Third')];
    const nowhere = await admin.post(url('/queue'), { trackId: ids[0] });
    assert.equal(nowhere.status, 400);
    assert.equal(nowhere.body.fields.channelId, 'Channel is required while the bot plays nowhere.');
    const view = async (pending: Promise<{ status: number; body: unknown }>): Promise<PlayerView> => {
      const response = await pending;
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return PlayerViewSchema.parse(response.body);
    };
    let player = await view(admin.post(url('/queue'), { trackId: ids[0], channelId: lounge() }));
    assert.equal(player.current?.title, 'First');
    assert.equal(player.channel?.id, lounge());
    await hears(440);
    await view(admin.post(url('/queue'), { trackId: String(ids[1]) }));
    player = await view(admin.post(url('/queue'), { trackId: ids[2] }));
    assert.deepEqual(
      player.queue.map((track) => track.title),
      ['Second', 'Third'],
    );
    player = await view(admin.post(url('/queue/move'), { entryId: player.queue[1]?.id, to: 1 }));
    assert.deepEqual(
      player.queue.map((track) => track.title),
      ['Third', 'Second'],
    );
    player = await view(admin.delete(url(`/queue/${player.queue[1]?.id}`)));
    assert.deepEqual(
      player.queue.map((track) => track.title),
      ['Third'],
    );
    const gone = await admin.delete(url('/queue/no-such-entry'));
    assert.equal(gone.status, 404);
    assert.equal((await view(admin.put(url('/player/loop'), { mode: 'queue' }))).loop, 'queue');
    assert.equal((await view(admin.put(url('/player/volume'), { volume: 50 }))).volume, 50);
    assert.equal((await view(admin.post(url('/player/pause')))).status, 'paused');
    assert.equal((await view(admin.post(url('/player/resume')))).status, 'playing');
    player = await view(admin.post(url('/player/skip')));
    assert.equal(player.current?.title, 'Third');
    // Looping the queue: the skipped track went to the back.
    assert.deepEqual(
      player.queue.map((track) => track.title),
      ['First'],
    );
    await hears(660);
    player = await view(admin.post(url('/player/stop')));
    assert.deepEqual({ status: player.status, current: player.current, queue: player.queue }, { status: 'idle', current: null, queue: [] });
  });
});
