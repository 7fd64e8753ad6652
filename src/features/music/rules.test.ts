import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MUSIC_MESSAGES, refusedLink, sizeInWords } from '../../shared/music';
import { titleFromFileName } from './library';
import { KeyedQueue } from '../../core/keyed-queue';

describe('music rules', () => {
  test('a title from a file name: the last path part without its extension, never a path', () => {
    assert.equal(titleFromFileName('My Song.mp3'), 'My Song');
    assert.equal(titleFromFileName('C:\\music\\..\\Evening.flac'), 'Evening');
    assert.equal(titleFromFileName('../../etc/passwd'), 'passwd');
    assert.equal(titleFromFileName('  spaced   out .ogg'), 'spaced out');
    assert.equal(titleFromFileName('.mp3'), null);
    assert.equal(titleFromFileName(undefined), null);
  });

  test('YouTube and Spotify links, and only those, are refused with their sentence', () => {
    for (const link of [
      'https://www.youtube.com/watch?v=a',
      'https://youtu.be/a',
      'https://music.youtube.com/x',
      'http://YOUTUBE.com./x',
      'https://www.youtube-nocookie.com/embed/a',
    ])
      assert.equal(refusedLink(link), MUSIC_MESSAGES.youtube, link);
    for (const link of ['https://open.spotify.com/track/a', 'https://spoti.fi/a', 'https://spotify.link/a'])
      assert.equal(refusedLink(link), MUSIC_MESSAGES.spotify, link);
    for (const link of ['https://notyoutube.com/x', 'https://youtube.com.evil.example/x', 'http://radio.example/stream', 'not a url'])
      assert.equal(refusedLink(link), null, link);
  });

  test('sizes in words', () => {
    assert.equal(sizeInWords(512), '512 bytes');
    assert.equal(sizeInWords(50 * 1024), '50 KB');
    assert.equal(sizeInWords(500 * 1024 * 1024), '500 MB');
    assert.equal(sizeInWords(1.25 * 1024 * 1024), '1.3 MB');
  });

  test('the keyed queue runs one task at a time per key, whatever the tasks throw', async () => {
    const queue = new KeyedQueue();
    const order: string[] = [];
    const slow = queue.run('a', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('a1');
      throw new Error('a1 failed');
    });
    const next = queue.run('a', async () => {
      order.push('a2');
      return 2;
    });
    const other = queue.run('b', async () => {
      order.push('b1');
      return 1;
    });
    await assert.rejects(slow, /a1 failed/);
    assert.equal(await next, 2);
    assert.equal(await other, 1);
    assert.deepEqual(order, ['b1', 'a1', 'a2']);
  });
});
