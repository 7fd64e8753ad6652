import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Conflict, Forbidden, InvalidInput } from '../../core/errors';
import { formatDuration } from '../../shared/music';
import { MusicQueue, QUEUE_PAGE_SIZE, skipVotesNeeded, type QueuedTrack } from './queue';

let next = 0;
/** A library track of `seconds`, asked for by `by`. */
const track = (by: string, seconds: number | null = 180, title = `track ${(next += 1)}`): QueuedTrack => ({
  id: `q${next}`,
  title,
  source: { kind: 'library', trackId: `t${next}` },
  durationSeconds: seconds,
  requestedBy: by,
  requestedByName: by,
});
const limits = { maxQueueLength: 5, perMemberQueueLimit: 2, maxTrackSeconds: 600 };
const member = (userId: string) => ({ userId, dj: false });
const dj = { userId: 'dj', dj: true };
const titles = (queue: MusicQueue) => queue.next.map((queued) => queued.title);

describe('the music queue', () => {
  test('the first track plays at once; the next wait in order', () => {
    const queue = new MusicQueue(limits);
    assert.deepEqual(queue.add(track('a', 180, 'one'), member('a')), { position: 0 });
    assert.deepEqual(queue.add(track('b', 180, 'two'), member('b')), { position: 1 });
    assert.equal(queue.current?.title, 'one');
    assert.deepEqual(titles(queue), ['two']);
  });

  test('full: the queue length counts the playing track; refused in words', () => {
    const queue = new MusicQueue({ ...limits, perMemberQueueLimit: 10 });
    for (let i = 0; i < 5; i += 1) queue.add(track('a'), member('a'));
    assert.throws(
      () => queue.add(track('a'), member('a')),
      (error: Error) => error instanceof Conflict && /The queue is full \(5 tracks\)/.test(error.message),
    );
  });

  test("a member's share: waiting tracks count, the playing one does not; DJs are not held to it", () => {
    const queue = new MusicQueue(limits);
    queue.add(track('a'), member('a'));
    queue.add(track('a'), member('a'));
    queue.add(track('a'), member('a'));
    assert.throws(
      () => queue.add(track('a'), member('a')),
      (error: Error) => error instanceof Conflict && /You already have 2 tracks waiting/.test(error.message),
    );
    queue.add(track('b'), member('b'));
    queue.add(track('dj'), dj);
    assert.equal(queue.next.length, 4);
  });

  test('a track over the length limit is refused with both lengths; a live stream has none and is taken', () => {
    const queue = new MusicQueue(limits);
    assert.throws(
      () => queue.add(track('a', 3725, 'long one'), member('a')),
      (error: Error) => error instanceof InvalidInput && error.message === '“long one” is 1:02:05 long; this server plays tracks up to 10:00.',
    );
    assert.deepEqual(queue.add(track('a', null, 'radio'), member('a')), { position: 0 });
    assert.equal(new MusicQueue({ ...limits, maxTrackSeconds: null }).add(track('a', 99_999), member('a')).position, 0);
  });

  test('remove: members their own tracks, DJs any; a place that does not exist is named', () => {
    const queue = new MusicQueue({ ...limits, perMemberQueueLimit: 5 });
    queue.add(track('a', 60, 'playing'), member('a'));
    queue.add(track('a', 60, 'mine'), member('a'));
    queue.add(track('b', 60, 'theirs'), member('b'));
    assert.throws(() => queue.remove(2, member('a')), Forbidden);
    assert.throws(
      () => queue.remove(3, member('a')),
      (error: Error) => error instanceof InvalidInput && /no track at place 3; the queue has 2/.test(error.message),
    );
    assert.equal(queue.remove(1, member('a')).title, 'mine');
    assert.equal(queue.remove(1, dj).title, 'theirs');
    assert.equal(queue.current?.title, 'playing', 'removing never touches the playing track');
  });

  test('move: DJs reorder; members may not', () => {
    const queue = new MusicQueue({ ...limits, perMemberQueueLimit: 5 });
    for (const title of ['now', 'a', 'b', 'c']) queue.add(track('x', 60, title), member('x'));
    assert.throws(() => queue.move(3, 1, member('x')), Forbidden);
    queue.move(3, 1, dj);
    assert.deepEqual(titles(queue), ['c', 'a', 'b']);
    assert.throws(() => queue.move(1, 4, dj), InvalidInput);
  });

  test('loop modes: off plays each once, track repeats until skipped, queue sends each played track to the back', () => {
    const queue = new MusicQueue({ ...limits, perMemberQueueLimit: 5 });
    for (const title of ['a', 'b', 'c']) queue.add(track('x', 60, title), member('x'));
    queue.loop = 'track';
    assert.equal(queue.advance()?.title, 'a');
    assert.equal(queue.advance(true)?.title, 'b', 'a skip moves on');
    // A skip drops the track it moved on from, as with loop off: 'a' is gone.
    queue.loop = 'queue';
    assert.equal(queue.advance()?.title, 'c');
    assert.deepEqual(titles(queue), ['b']);
    assert.equal(queue.advance()?.title, 'b');
    assert.deepEqual(titles(queue), ['c']);
    queue.loop = 'off';
    assert.equal(queue.advance()?.title, 'c');
    assert.equal(queue.advance(), null);
    assert.equal(queue.current, null);
  });

  test('shuffle keeps every track and the playing one; with a fixed random it is a known order', () => {
    const queue = new MusicQueue({ ...limits, maxQueueLength: 10, perMemberQueueLimit: 10 });
    for (const title of ['now', 'a', 'b', 'c', 'd']) queue.add(track('x', 60, title), member('x'));
    queue.shuffle(() => 0);
    assert.deepEqual(titles(queue), ['b', 'c', 'd', 'a']);
    assert.equal(queue.current?.title, 'now');
  });

  test('pages of ten; a page past the end is the last', () => {
    const queue = new MusicQueue({ maxQueueLength: 100, perMemberQueueLimit: 100, maxTrackSeconds: null });
    for (let i = 0; i <= 23; i += 1) queue.add(track('x', 60, `t${i}`), member('x'));
    const last = queue.page(9);
    assert.deepEqual([last.page, last.pages, last.total, last.tracks.length], [3, 3, 23, 3]);
    assert.equal(last.tracks[0]?.position, 2 * QUEUE_PAGE_SIZE + 1);
    assert.equal(queue.page(1).current?.title, 't0');
    assert.deepEqual(new MusicQueue(limits).page(1), { current: null, tracks: [], page: 1, pages: 1, total: 0 });
  });

  test('/stop clears everything', () => {
    const queue = new MusicQueue(limits);
    queue.add(track('a'), member('a'));
    queue.add(track('b'), member('b'));
    queue.clear();
    assert.equal(queue.current, null);
    assert.equal(queue.next.length, 0);
  });
});

describe('skip votes and durations', () => {
  test('a vote passes at the share of listeners, at least one vote', () => {
    assert.equal(skipVotesNeeded(1, 0.5), 1);
    assert.equal(skipVotesNeeded(4, 0.5), 2);
    assert.equal(skipVotesNeeded(5, 0.5), 3);
    assert.equal(skipVotesNeeded(3, 1), 3);
    assert.equal(skipVotesNeeded(10, 0.3), 3);
    assert.equal(skipVotesNeeded(0, 0.5), 1);
  });

  test('durations read as a clock does', () => {
    assert.equal(formatDuration(187), '3:07');
    assert.equal(formatDuration(3725), '1:02:05');
    assert.equal(formatDuration(0), '0:00');
  });
});
