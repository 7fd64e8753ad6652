import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyedQueue } from './keyed-queue';

test('tasks of one key run one at a time, in order; a failure does not stop the next', async () => {
  const queue = new KeyedQueue();
  const order: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const first = queue.run('a', async () => {
    await gate;
    order.push('a1');
    throw new Error('a1 failed');
  });
  const second = queue.run('a', async () => void order.push('a2'));
  await queue.run('b', async () => void order.push('b1'));
  assert.deepEqual(order, ['b1'], 'another key does not wait');
  release();
  await assert.rejects(first, /a1 failed/);
  await second;
  assert.deepEqual(order, ['b1', 'a1', 'a2']);
});

test('settled waits for every task queued so far, failed ones included', async () => {
  const queue = new KeyedQueue();
  let done = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  void queue.run('a', async () => {
    await gate;
    done += 1;
  });
  queue.run('b', async () => Promise.reject(new Error('b failed'))).catch(() => undefined);
  let isSettled = false;
  const settled = queue.settled().then(() => (isSettled = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(isSettled, false, 'not while a task is under way');
  release();
  await settled;
  assert.equal(done, 1);
});
