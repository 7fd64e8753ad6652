import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseM3u, parsePlaylist, parsePls, playlistKind } from './playlist';

describe('playlists', () => {
  test('M3U: plain lines in order, comments and #EXTINF skipped, relative entries resolved, non-http dropped', () => {
    const text = [
      '\uFEFF#EXTM3U',
      '#EXTINF:-1,Radio One',
      'http://radio.example/one.mp3',
      '',
      '#EXTINF:-1,Relative',
      'two.aac',
      'C:\\Music\\local.mp3',
      'rtsp://radio.example/three',
      'https://radio.example/one.mp3?x=1',
      'http://radio.example/one.mp3',
    ].join('\r\n');
    assert.deepEqual(parseM3u(text, 'https://radio.example/list/stations.m3u'), [
      'http://radio.example/one.mp3',
      'https://radio.example/list/two.aac',
      'https://radio.example/one.mp3?x=1',
    ]);
    assert.deepEqual(parseM3u('#EXTM3U\nrelative.mp3\n'), [], 'a relative entry without a base is dropped');
  });

  test('PLS: File entries by number whatever their order, other keys ignored, keys in any case', () => {
    const text = [
      '[playlist]',
      'NumberOfEntries=3',
      'File2=http://b.example/stream',
      'Title2=B',
      'file1 = http://a.example/stream ',
      'FILE3=ftp://c.example/x',
      'Version=2',
    ].join('\n');
    assert.deepEqual(parsePls(text), ['http://a.example/stream', 'http://b.example/stream']);
    assert.deepEqual(parsePlaylist('pls', text), parsePls(text));
    assert.deepEqual(parsePls('not a playlist'), []);
  });

  test('the kind comes from the Content-Type, else from the path', () => {
    assert.equal(playlistKind('audio/x-scpls', '/listen'), 'pls');
    assert.equal(playlistKind('audio/x-mpegurl; charset=utf-8', '/listen'), 'm3u');
    assert.equal(playlistKind('application/vnd.apple.mpegurl', '/x'), 'm3u');
    assert.equal(playlistKind('', '/Stations.PLS'), 'pls');
    assert.equal(playlistKind('text/plain', '/radio.m3u8'), 'm3u');
    assert.equal(playlistKind('audio/mpeg', '/stream'), null);
  });
});
