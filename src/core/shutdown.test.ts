import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { captureLogs } from '../../test/helpers/logs';
import { runShutdown } from './shutdown';

describe('runShutdown', () => {
  test('runs the steps in order and reports them finished', async () => {
    const ran: string[] = [];
    const step = (name: string) => ({ name, run: async () => void ran.push(name) });
    const outcome = await runShutdown([step('http'), step('flush'), step('store')], { logger: captureLogs().logger, deadlineMs: 1000 });
    assert.deepEqual(outcome, { finished: true, unfinished: [] });
    assert.deepEqual(ran, ['http', 'flush', 'store']);
  });

  test('a step that fails is logged by name and the next one still runs', async () => {
    const logs = captureLogs();
    const ran: string[] = [];
    const outcome = await runShutdown(
      [
        { name: 'gateway', run: () => Promise.reject(new Error('socket gone')) },
        { name: 'store', run: () => void ran.push('store') },
      ],
      { logger: logs.logger },
    );
    assert.equal(outcome.finished, true);
    assert.deepEqual(ran, ['store']);
    assert.ok(logs.entries().some((entry) => entry.step === 'gateway' && entry.msg === 'shutdown: gateway failed'));
  });

  test('at the deadline it names the step that hangs and those that never started', async () => {
    const started = Date.now();
    const outcome = await runShutdown(
      [
        { name: 'http', run: () => undefined },
        { name: 'feature leveling', run: () => new Promise(() => undefined) },
        { name: 'store', run: () => undefined },
      ],
      { logger: captureLogs().logger, deadlineMs: 100 },
    );
    assert.deepEqual(outcome, { finished: false, unfinished: ['feature leveling', 'store'] });
    assert.ok(Date.now() - started < 1000);
  });
});
