import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveBus, type LiveSignal } from './live';

test('a notice reaches the listeners of its guild only, and forgets that guild cached answers first', () => {
  const forgotten: string[] = [];
  const bus = new LiveBus((guildId) => forgotten.push(guildId));
  const heard: [string, LiveSignal][] = [];
  const stopA = bus.subscribe('a', (signal) => heard.push(['a', signal]));
  bus.subscribe('b', (signal) => heard.push(['b', signal]));
  bus.publish('a', 'reports');
  bus.publish('c', 'music');
  assert.deepEqual(heard, [['a', { kind: 'change', topic: 'reports' }]]);
  assert.deepEqual(forgotten, ['a'], 'a guild nobody follows costs nothing');
  stopA();
  assert.equal(bus.listenerCount('a'), 0);
  assert.equal(bus.listenerCount(), 1);
});

test('sessions ending reach every guild; closing tells everyone and takes no new listener', () => {
  const bus = new LiveBus();
  const heard: string[] = [];
  bus.subscribe('a', (signal) => heard.push(`a:${signal.kind}`));
  bus.subscribe('b', (signal) => heard.push(`b:${signal.kind}`));
  bus.sessionsEnded();
  bus.accessChanged('b', '42');
  bus.close();
  assert.deepEqual(heard, ['a:sessions', 'b:sessions', 'b:access', 'a:closing', 'b:closing']);
  assert.throws(() => bus.subscribe('a', () => undefined), /closed/);
});

test('a listener that stops listening while hearing a signal does not stop the others hearing it', () => {
  const bus = new LiveBus();
  const heard: number[] = [];
  const stop = bus.subscribe('a', () => {
    heard.push(1);
    stop();
  });
  bus.subscribe('a', () => heard.push(2));
  bus.publish('a', 'overview');
  bus.publish('a', 'overview');
  assert.deepEqual(heard, [1, 2, 2]);
});
