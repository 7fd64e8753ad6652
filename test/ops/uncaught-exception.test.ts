// The built product, as a self-hoster runs it, when an exception nothing catches escapes a timer
// while XP and coins wait in memory: it logs the error at fatal, writes what waits as a signal's
// shutdown does, and exits 1 (for Docker's restart policy or systemd to start it again) within the
// shutdown's deadline. The exception is thrown by a preload given to this child only (`--import`
// of a data: URL, on SIGUSR2): the product's code carries no hook for it.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildProduct, type BuiltProduct } from '../helpers/build';
import { startRunningProduct, type RunningProduct } from './running-product';

/** Throws from a timer, as a defect in some callback would, when the process gets SIGUSR2. */
const THROW_ON_SIGUSR2 = `data:text/javascript,${encodeURIComponent(
  "process.on('SIGUSR2', () => setTimeout(() => { throw new Error('a defect thrown from a timer'); }, 0));",
)}`;

describe('an uncaught exception', () => {
  let built: BuiltProduct;
  let dir: string;
  let product: RunningProduct | undefined;

  before(async () => {
    built = await buildProduct();
    dir = await mkdtemp(path.join(tmpdir(), 'uncaught-test-'));
  });
  after(async () => {
    await product?.kill();
    await built?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('is logged at fatal, the XP waiting in memory is written, and the process exits 1 within 10 s', { timeout: 120_000 }, async () => {
    const running = await startRunningProduct(built, dir, ['--import', THROW_ON_SIGUSR2]);
    product = running;
    const posted = await running.chatUntilAccrualsWait();

    const thrown = Date.now();
    running.child.kill('SIGUSR2');
    const [code, signal] = await running.exited;
    const tookMs = Date.now() - thrown;
    assert.equal(signal, null, running.output());
    assert.equal(code, 1, running.output());
    assert.ok(tookMs < 10_000, `exited in ${tookMs} ms`);

    const fatal = running.logs().filter((entry) => entry.level === 60);
    assert.equal(fatal.length, 1, running.output());
    assert.equal(fatal[0]?.err?.message, 'a defect thrown from a timer');
    assert.match(fatal[0]?.msg ?? '', /uncaught exception/);
    assert.equal(await running.messagesWritten(), posted, 'every message received before the exception was written');
  });
});
