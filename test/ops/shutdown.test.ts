// The built product, as a self-hoster runs it, stopped with SIGTERM while XP and coins wait in
// memory: it exits 0 within 10 s, and the store holds every message the bot received.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildProduct, type BuiltProduct } from '../helpers/build';
import { startRunningProduct, type RunningProduct } from './running-product';

describe('SIGTERM', () => {
  let built: BuiltProduct;
  let dir: string;
  let product: RunningProduct | undefined;

  before(async () => {
    built = await buildProduct();
    dir = await mkdtemp(path.join(tmpdir(), 'shutdown-test-'));
  });
  after(async () => {
    await product?.kill();
    await built?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('writes every accrual the bot received, closes everything and exits 0 within 10 s, once for two signals', { timeout: 120_000 }, async () => {
    const running = await startRunningProduct(built, dir);
    product = running;
    const posted = await running.chatUntilAccrualsWait();

    const signalled = Date.now();
    running.child.kill('SIGTERM');
    running.child.kill('SIGTERM');
    const [code, signal] = await running.exited;
    const tookMs = Date.now() - signalled;
    assert.equal(signal, null, running.output());
    assert.equal(code, 0, running.output());
    assert.ok(tookMs < 10_000, `stopped in ${tookMs} ms`);

    const logs = running.logs();
    assert.equal(logs.filter((entry) => entry.msg === 'shutting down').length, 1, 'one shutdown for two signals');
    assert.ok(logs.some((entry) => entry.msg === 'stopped'));
    assert.deepEqual(
      logs.filter((entry) => entry.level >= 50).map((entry) => entry.msg),
      [],
      'nothing failed while stopping',
    );
    assert.equal(await running.messagesWritten(), posted, 'every message received was written');
  });
});
