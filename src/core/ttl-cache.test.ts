import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TtlCache } from './ttl-cache';

/** A cache on a clock the test moves, and a loader that counts its calls and answers what `next` holds. */
function setup() {
  let now = 0;
  const cache = new TtlCache<number>(1000, () => now, 3, 5000);
  const state = { loads: 0, next: 1, gate: null as Promise<void> | null };
  const load = async () => {
    state.loads += 1;
    const value = state.next;
    if (state.gate) await state.gate;
    return value;
  };
  return { cache, state, load, advance: (ms: number) => (now += ms) };
}

test('a fresh entry is answered; concurrent reads share one load; a failed load is not kept', async () => {
  const { cache, state, load } = setup();
  const [a, b] = await Promise.all([cache.get('g:x', load), cache.get('g:x', load)]);
  assert.deepEqual([a, b, state.loads], [1, 1, 1]);
  await assert.rejects(cache.get('g:y', () => Promise.reject(new Error('down'))));
  assert.equal(await cache.get('g:y', load), 1, 'the failure was not kept');
});

test('past its time or marked stale, the old answer is served while one refresh runs; past the grace, readers wait', async () => {
  const { cache, state, load, advance } = setup();
  await cache.get('g:x', load);
  state.next = 2;
  let release = () => {};
  state.gate = new Promise<void>((resolve) => (release = resolve));
  advance(1500);
  assert.equal(await cache.get('g:x', load), 1, 'stale while the refresh runs');
  assert.equal(await cache.get('g:x', load), 1);
  assert.equal(state.loads, 2, 'one refresh');
  release();
  state.gate = null;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await cache.get('g:x', load), 2, 'the refreshed answer');

  state.next = 3;
  cache.markStale('g:');
  assert.equal(await cache.get('g:x', load), 2, 'marked stale: served once more');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await cache.get('g:x', load), 3);

  state.next = 4;
  advance(7000);
  assert.equal(await cache.get('g:x', load), 4, 'too old to serve: the reader waits for a load');
});

test('invalidate forgets at once (the next read loads), also over a refresh that was running', async () => {
  const { cache, state, load, advance } = setup();
  await cache.get('g:x', load);
  await cache.get('h:x', load);
  state.next = 2;
  let release = () => {};
  state.gate = new Promise<void>((resolve) => (release = resolve));
  advance(1500);
  assert.equal(await cache.get('g:x', load), 1);
  cache.invalidate('g:');
  state.next = 3;
  state.gate = null;
  assert.equal(await cache.get('g:x', load), 3, 'a write someone expects to see');
  release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await cache.get('g:x', load), 3, 'the older refresh did not overwrite it');
  advance(-1500);
  assert.equal(await cache.get('h:x', load), 1, 'another prefix kept');
});

test('at most maxEntries keys; the oldest goes first', async () => {
  const { cache, state, load } = setup();
  for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, load);
  const before = state.loads;
  await cache.get('d', load);
  await cache.get('b', load);
  assert.equal(state.loads, before, 'b and d kept');
  await cache.get('a', load);
  assert.equal(state.loads, before + 1, 'a was dropped');
});
