// Saved radio stations through HTTP: names unique per server whatever their case, addresses that
// must be http(s) and public (the webhook guard, unless the operator allows private ones), and
// YouTube and Spotify links refused with the reason in words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import { MUSIC_MESSAGES, StationSchema } from '../../src/shared/music';
import { useHarness } from '../helpers/harness';

const h = useHarness();
const base = () => `/api/servers/${h().guildId}/music/stations`;
const admin = () => h().signIn(h().demo.adminUserId);
const PUBLIC_STREAM = 'http://93.184.216.34/stream.mp3';

describe('radio stations', () => {
  test('POST: 401 signed out, 400 naming the fields, 403 a plain member, 200 an admin; listed by name', async () => {
    assert.equal((await request(h().product.url).post(base()).set('Origin', h().product.config.publicUrl).send({ name: 'A', url: PUBLIC_STREAM })).status, 401);
    const session = await admin();
    const bad = await session.post(base(), { name: '', url: 'ftp://radio.example/x' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.name, 'Name is required.');
    assert.equal(bad.body.fields.url, 'URL must be an http:// or https:// address of a stream or playlist.');
    const member = await h().signIn(h().demo.plainMemberId);
    assert.equal((await member.post(base(), { name: 'Mine', url: PUBLIC_STREAM })).status, 403);
    const jazz = StationSchema.parse((await session.post(base(), { name: 'Jazz FM', url: PUBLIC_STREAM }).expect(200)).body);
    await session.post(base(), { name: 'Ambient', url: 'https://93.184.216.34/ambient.pls' }).expect(200);
    const list = (await session.get(base()).expect(200)).body as { name: string }[];
    assert.deepEqual(
      list.map((station) => station.name),
      ['Ambient', 'Jazz FM'],
    );
    const taken = await session.post(base(), { name: 'jazz fm', url: PUBLIC_STREAM });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.message, 'A station named "jazz fm" exists already; pick another name.');

    const url = `${base()}/${jazz.id}`;
    assert.equal((await member.patch(url, { name: 'Mine' })).status, 403);
    assert.equal((await session.patch(url, { name: 'x'.repeat(51) })).body.fields.name, 'Name must be at most 50 characters.');
    assert.equal((await session.patch(url, { name: 'AMBIENT' })).status, 409);
    const renamed = StationSchema.parse((await session.patch(url, { name: 'JAZZ FM', baseVersion: 0 }).expect(200)).body);
    assert.equal(renamed.name, 'JAZZ FM', 'a change of case only is the same name');
    assert.equal((await member.delete(url)).status, 403);
    await session.delete(url).expect(204);
    assert.equal((await session.delete(url)).status, 404);
  });

  test('a private address is refused: loopback, 10.x, a link-local or a name that resolves to one', async () => {
    const session = await admin();
    for (const url of ['http://127.0.0.1:8000/live', 'http://10.1.2.3/stream', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://localhost/x']) {
      const response = await session.post(base(), { name: 'Local', url });
      assert.equal(response.status, 400, url);
      assert.match(response.body.fields.url, /^The stream's host .+ (points to an address that is not public|does not resolve)/, url);
    }
  });

  test('YouTube and Spotify links are refused with the reason, on save and on edit', async () => {
    const session = await admin();
    for (const url of ['https://www.youtube.com/watch?v=abc', 'https://youtu.be/abc', 'https://music.youtube.com/watch?v=abc', 'https://m.youtube.com/x']) {
      const response = await session.post(base(), { name: 'Tube', url });
      assert.equal(response.status, 400, url);
      assert.equal(response.body.message, MUSIC_MESSAGES.youtube);
      assert.equal(response.body.fields.url, MUSIC_MESSAGES.youtube);
    }
    for (const url of ['https://open.spotify.com/track/abc', 'https://spotify.link/abc']) {
      const response = await session.post(base(), { name: 'Spot', url });
      assert.equal(response.status, 400, url);
      assert.equal(response.body.message, MUSIC_MESSAGES.spotify);
    }
    const station = StationSchema.parse((await session.post(base(), { name: 'Edited', url: PUBLIC_STREAM }).expect(200)).body);
    const edit = await session.patch(`${base()}/${station.id}`, { url: 'https://youtu.be/xyz' });
    assert.equal(edit.status, 400);
    assert.equal(edit.body.message, MUSIC_MESSAGES.youtube);
  });
});

describe('radio stations when the operator allows private addresses', () => {
  const allowed = useHarness({ ALLOW_PRIVATE_WEBHOOKS: '1' });
  test('a stream on the operator’s own network is saved', async () => {
    const session = await allowed().signIn(allowed().demo.adminUserId);
    const response = await session.post(`/api/servers/${allowed().guildId}/music/stations`, { name: 'Home', url: 'http://10.0.0.5:8000/live' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });
});
