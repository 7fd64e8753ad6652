// The library's limits through HTTP: a file over MUSIC_MAX_FILE_MB is refused (by its declared
// length, or while it streams when it declares none) and nothing of it is kept; a file over what
// the server's quota has left is refused with what is used and what the file needs. Then the music
// settings: 401, 400, 403, 200 and the saved values read back.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import { describe, test } from 'node:test';
import request from 'supertest';
import { LibrarySchema, MUSIC_DEFAULTS, MusicSettingsViewSchema, fileTooLarge, quotaExceeded } from '../../src/shared/music';
import { noiseWav } from '../helpers/audio';
import { useHarness } from '../helpers/harness';

// 50 KB per file, 100 KB per server: a second of the test WAV is 16 KB.
const h = useHarness({ MUSIC_MAX_FILE_MB: String(50 / 1024), MUSIC_QUOTA_MB: String(100 / 1024) });
const base = () => `/api/servers/${h().guildId}/music/library`;
const origin = () => h().product.config.publicUrl;
const admin = () => h().signIn(h().demo.adminUserId);

async function upload(bytes: Buffer, name: string) {
  const session = await admin();
  return session.agent.post(`${base()}?name=${name}`).set('Origin', origin()).set('Content-Type', 'audio/wav').send(bytes);
}

/** Every file under the library's folder, the temporary ones included. */
async function filesOnDisk(): Promise<string[]> {
  const entries = await readdir(h().product.config.music.dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** Sends `bytes` in chunks with no Content-Length (chunked), as a client that does not say the size. */
function uploadChunked(cookie: string, bytes: Buffer): Promise<{ status: number; body: { message?: string } }> {
  const url = new URL(`${h().product.url}${base()}?name=big.wav`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { Cookie: cookie, Origin: origin(), 'Content-Type': 'audio/wav', 'Transfer-Encoding': 'chunked' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') as { message?: string } }));
      },
    );
    req.on('error', reject);
    for (let at = 0; at < bytes.length; at += 8192) req.write(bytes.subarray(at, at + 8192));
    req.end();
  });
}

describe('library limits', () => {
  test('over the largest file: 413 with the limit in words, by its declared length or while it streams; nothing kept', async () => {
    const before = await filesOnDisk();
    const big = noiseWav(4);
    const declared = await upload(big, 'big.wav');
    assert.equal(declared.status, 413);
    assert.equal(declared.body.message, fileTooLarge(50 * 1024));
    assert.equal(declared.body.message, 'The file is larger than 50 KB, the most one upload may be.');

    const session = await admin();
    const cookie = (await session.agent.get('/api/auth/me')).request.cookies;
    const streamed = await uploadChunked(String(cookie), big);
    assert.equal(streamed.status, 413);
    assert.equal(streamed.body.message, fileTooLarge(50 * 1024));
    assert.deepEqual(await filesOnDisk(), before, 'nothing of a refused file is kept');
    assert.equal(LibrarySchema.parse((await session.get(base()).expect(200)).body).tracks.length, 0);
  });

  test('over the quota: 413 saying what is used and what the file needs; nothing kept', async () => {
    for (const name of ['one', 'two', 'three']) assert.equal((await upload(noiseWav(2), `${name}.wav`)).status, 200);
    const session = await admin();
    const library = LibrarySchema.parse((await session.get(base()).expect(200)).body);
    assert.equal(library.usedBytes, 3 * noiseWav(2).length);
    const before = await filesOnDisk();
    const fourth = noiseWav(2);
    const refused = await upload(fourth, 'four.wav');
    assert.equal(refused.status, 413);
    assert.equal(refused.body.error, 'quota_exceeded');
    assert.equal(refused.body.message, quotaExceeded(library.usedBytes, 100 * 1024, fourth.length));
    assert.match(refused.body.message, /^The library uses 94 KB of its 100 KB; this file needs 31 KB more\. Remove tracks to make room\.$/);
    assert.deepEqual(await filesOnDisk(), before);
  });
});

describe('music settings', () => {
  test('GET and PUT: 401, 400 naming the field, 403, 200 with the defaults and the saved values', async () => {
    const url = `/api/servers/${h().guildId}/music/settings`;
    assert.equal((await request(h().product.url).get(url)).status, 401);
    const session = await admin();
    const current = MusicSettingsViewSchema.parse((await session.get(url).expect(200)).body);
    assert.deepEqual({ ...current, version: 0 }, { ...MUSIC_DEFAULTS, version: 0 });
    const bad = await session.put(url, { musicVoteSkipRatio: 2, musicLeaveWhenAloneSeconds: -1, musicRadioChannelId: h().demo.roles.member });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.musicVoteSkipRatio, 'Vote to skip share must be between 0.1 and 1.');
    assert.equal(bad.body.fields.musicLeaveWhenAloneSeconds, 'Leave when alone after (seconds) must be between 0 and 3,600.');
    const member = await h().signIn(h().demo.plainMemberId);
    assert.equal((await member.put(url, { musicDefaultVolume: 50 })).status, 403);
    const notVoice = await session.put(url, { musicRadioChannelId: h().demo.channels.general });
    assert.equal(notVoice.status, 400);
    assert.match(notVoice.body.fields.musicRadioChannelId, /is not a voice channel/);
    const saved = MusicSettingsViewSchema.parse(
      (await session.put(url, { musicDefaultVolume: 50, musicMaxQueueLength: 200, baseVersion: current.version }).expect(200)).body,
    );
    assert.equal(saved.musicDefaultVolume, 50);
    assert.equal(saved.musicMaxQueueLength, 200);
    assert.equal(saved.version, current.version + 1);
    const all = (await session.get(`/api/servers/${h().guildId}/settings`).expect(200)).body as Record<string, unknown>;
    assert.equal(all.musicDefaultVolume, 50, 'the same slice as the guild settings');
  });
});
