import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MUSIC_DEFAULTS } from '../../shared/music';
import type { GuildSettings } from '../../shared/settings';
import { ffmpegArgs, ffmpegReason } from './audio-input';
import { isDj } from './control';
import { leavesAlone } from './players';

const settings = (patch: Partial<GuildSettings>) => ({ ...MUSIC_DEFAULTS, ...patch }) as GuildSettings;

describe('the player’s rules', () => {
  test('alone: leaves after the server’s seconds, never with 0, never from the 24/7 radio channel', () => {
    const after60 = settings({ musicLeaveWhenAloneSeconds: 60 });
    assert.equal(leavesAlone(null, 1_000_000, 'c', after60), false);
    assert.equal(leavesAlone(1000, 60_999, 'c', after60), false);
    assert.equal(leavesAlone(1000, 61_000, 'c', after60), true);
    assert.equal(leavesAlone(1000, 10_000_000, 'c', settings({ musicLeaveWhenAloneSeconds: 0 })), false);
    assert.equal(leavesAlone(1000, 10_000_000, 'radio', settings({ musicRadioChannelId: 'radio' })), false);
  });

  test('a DJ: Manage Server, or the DJ role when one is set', () => {
    const member = (manage: boolean, roles: string[]) => ({
      permissions: { has: () => manage },
      roles: { cache: new Map(roles.map((id) => [id, {}])) },
    });
    assert.equal(isDj(member(true, []) as never, { musicDjRoleId: null }), true);
    assert.equal(isDj(member(false, ['dj']) as never, { musicDjRoleId: null }), false);
    assert.equal(isDj(member(false, ['dj']) as never, { musicDjRoleId: 'dj' }), true);
    assert.equal(isDj(member(false, ['other']) as never, { musicDjRoleId: 'dj' }), false);
  });

  test('ffmpeg reads a file by path only, streams from its stdin only; seeks files, listens for silence on live streams', () => {
    const file = ffmpegArgs({ kind: 'file', path: '/music/1/abc.mp3' }, 12.5);
    assert.deepEqual(file.slice(file.indexOf('-ss'), file.indexOf('-ss') + 2), ['-ss', '12.500']);
    assert.ok(file.join(' ').includes('-protocol_whitelist file -i file:/music/1/abc.mp3'));
    assert.ok(!file.includes('silencedetect'));
    const live = ffmpegArgs({ kind: 'bytes', body: null as never, live: true }, 30);
    assert.ok(live.join(' ').includes('-protocol_whitelist pipe -i pipe:0'));
    assert.ok(!live.includes('-ss'), 'a live stream is not seeked');
    assert.ok(live.some((arg) => arg.startsWith('silencedetect=')));
    assert.deepEqual(live.slice(-7), ['-f', 's16le', '-ar', '48000', '-ac', '2', 'pipe:1']);
  });

  test('ffmpeg’s last words become a reason a member reads', () => {
    assert.equal(ffmpegReason(['pipe:0: Invalid data found when processing input']), 'it is not audio the bot can read');
    assert.equal(ffmpegReason(['file:/x.mp3: No such file or directory']), 'its file is missing from the library folder');
    assert.equal(ffmpegReason(['something else']), 'ffmpeg could not decode it');
  });
});
