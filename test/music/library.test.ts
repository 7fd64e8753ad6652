// The music library through HTTP: uploads of every format the library takes (made by ffmpeg),
// their duration and tags read; files that are not audio refused whatever their name; edits and
// removal (the file too); and two servers' libraries kept apart.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import { LibrarySchema, LibraryTrackSchema, MUSIC_MESSAGES } from '../../src/shared/music';
import { addTrack, listLibrary } from '../../src/features/music/library';
import { Readable } from 'node:stream';
import { ffmpegAudio, noiseWav, type TestFormat } from '../helpers/audio';
import { useHarness } from '../helpers/harness';

const h = useHarness({ MUSIC_MAX_FILE_MB: '2', MUSIC_QUOTA_MB: '20' });
const base = () => `/api/servers/${h().guildId}/music/library`;
const origin = () => h().product.config.publicUrl;
const admin = () => h().signIn(h().demo.adminUserId);

/** Uploads bytes as the dashboard does: the file as the body, its name in the query. */
async function upload(bytes: Buffer, name: string, contentType = 'application/octet-stream') {
  const session = await admin();
  return session.agent
    .post(`${base()}?name=${encodeURIComponent(name)}`)
    .set('Origin', origin())
    .set('Content-Type', contentType)
    .send(bytes);
}

/** The files under the library's folder, the temporary ones included. */
async function filesOnDisk(): Promise<string[]> {
  const entries = await readdir(h().product.config.music.dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('music library uploads', () => {
  test('401 signed out, 400 a bad query, 403 a plain member, 200 an admin (MP3 with its tags)', async () => {
    const mp3 = await ffmpegAudio('mp3', 2, { title: 'Tone', artist: 'The Sines' });
    const anonymous = await request(h().product.url).post(`${base()}?name=a.mp3`).set('Origin', origin()).set('Content-Type', 'audio/mpeg').send(mp3);
    assert.equal(anonymous.status, 401);
    const session = await admin();
    const bad = await session.agent.post(`${base()}?name=a.mp3&folder=x`).set('Origin', origin()).set('Content-Type', 'audio/mpeg').send(mp3);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.folder, 'Folder is not a known field.');
    const member = await h().signIn(h().demo.plainMemberId);
    const refused = await member.agent.post(`${base()}?name=a.mp3`).set('Origin', origin()).set('Content-Type', 'audio/mpeg').send(mp3);
    assert.equal(refused.status, 403);
    const ok = await upload(mp3, 'ignored name.mp3', 'audio/mpeg');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const track = LibraryTrackSchema.parse(ok.body);
    assert.equal(track.format, 'mp3');
    assert.equal(track.title, 'Tone');
    assert.equal(track.artist, 'The Sines');
    assert.ok(Math.abs(track.durationSeconds - 2) <= 0.2, `duration ${track.durationSeconds}`);
    assert.equal(track.sizeBytes, mp3.length);
    assert.equal(track.uploadedBy.id, h().demo.adminUserId);
  });

  for (const format of ['ogg', 'opus', 'flac', 'wav', 'm4a'] satisfies TestFormat[]) {
    test(`${format}: sniffed from the bytes, duration read, the title from the file name when the tags have none`, async () => {
      const bytes = await ffmpegAudio(format, 2);
      const ok = await upload(bytes, `C:\\music\\../Evening ${format}.${format}`);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const track = LibraryTrackSchema.parse(ok.body);
      assert.equal(track.format, format);
      assert.ok(Math.abs(track.durationSeconds - 2) <= 0.2, `duration ${track.durationSeconds}`);
      assert.equal(track.title, `Evening ${format}`);
    });
  }

  test('a text file named .mp3 is refused with what the library takes, and nothing is kept', async () => {
    const before = await filesOnDisk();
    const response = await upload(Buffer.from('This is not a song at all, only text.\n'.repeat(50)), 'song.mp3', 'audio/mpeg');
    assert.equal(response.status, 415);
    assert.equal(response.body.message, MUSIC_MESSAGES.notAudio);
    assert.deepEqual(await filesOnDisk(), before);
    const empty = await upload(Buffer.alloc(0), 'empty.mp3');
    assert.equal(empty.status, 400);
    assert.equal(empty.body.message, MUSIC_MESSAGES.empty);
  });

  test('the same file twice is refused, naming the track it is already', async () => {
    const wav = noiseWav();
    assert.equal((await upload(wav, 'First.wav')).status, 200);
    const again = await upload(wav, 'Second.wav');
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'That file is in the library already, as "First".');
  });

  test('list with usage; title and artist edited (400/403 first); removal takes the file too', async () => {
    const session = await admin();
    const created = LibraryTrackSchema.parse((await upload(noiseWav(), 'Edit me.wav')).body);
    const library = LibrarySchema.parse((await session.get(base()).expect(200)).body);
    assert.equal(library.tracks[0]?.id, created.id, 'newest first');
    assert.equal(
      library.usedBytes,
      library.tracks.reduce((sum, track) => sum + track.sizeBytes, 0),
    );
    assert.equal(library.quotaBytes, 20 * 1024 * 1024);
    const url = `${base()}/${created.id}`;
    assert.equal((await request(h().product.url).patch(url).set('Origin', origin()).send({ title: 'x' })).status, 401);
    const blank = await session.patch(url, { title: '  ' });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.fields.title, 'Title is required.');
    const member = await h().signIn(h().demo.plainMemberId);
    assert.equal((await member.patch(url, { title: 'Mine' })).status, 403);
    const edited = LibraryTrackSchema.parse((await session.patch(url, { title: 'Renamed', artist: 'Someone', baseVersion: 0 }).expect(200)).body);
    assert.equal(edited.title, 'Renamed');
    assert.equal(edited.artist, 'Someone');
    assert.equal(edited.version, 1);

    const files = await filesOnDisk();
    assert.ok(files.some((file) => file.includes(path.join(h().guildId, ''))));
    assert.equal((await member.delete(url)).status, 403);
    await session.delete(url).expect(204);
    assert.equal((await session.delete(url)).status, 404);
    assert.equal((await filesOnDisk()).length, files.length - 1, 'the file went with the track');
  });

  test('two servers never see each other’s library', async () => {
    const { services } = h().product;
    const otherGuild = '100000000000000077';
    const theirs = await addTrack(services, otherGuild, { body: Readable.from([noiseWav()]), fileName: 'Theirs.wav', uploader: { userId: '1', name: 'x' } });
    assert.deepEqual(
      (await listLibrary(services, otherGuild)).tracks.map((track) => track.title),
      ['Theirs'],
    );
    const session = await admin();
    const ours = LibrarySchema.parse((await session.get(base()).expect(200)).body);
    assert.ok(!ours.tracks.some((track) => track.id === theirs.id));
    assert.equal((await session.patch(`${base()}/${theirs.id}`, { title: 'Stolen' })).status, 404);
    assert.equal((await session.delete(`${base()}/${theirs.id}`)).status, 404);
    assert.equal((await listLibrary(services, otherGuild)).tracks[0]?.title, 'Theirs');
  });
});
