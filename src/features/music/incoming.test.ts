import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { INCOMING_LEFTOVER_MS, sweepIncoming } from './library';

test('unfinished uploads: files in .incoming older than an hour are removed, newer ones (another process receiving) kept', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'music-incoming-'));
  assert.equal(await sweepIncoming(dir, Date.now()), 0, 'no .incoming folder yet: nothing to do');
  const incoming = path.join(dir, '.incoming');
  await mkdir(incoming);
  const now = Date.now();
  await writeFile(path.join(incoming, 'cut-off'), 'partial upload');
  const old = new Date(now - INCOMING_LEFTOVER_MS - 60_000);
  await utimes(path.join(incoming, 'cut-off'), old, old);
  await writeFile(path.join(incoming, 'receiving'), 'an upload under way');
  assert.equal(await sweepIncoming(dir, now), 1);
  assert.deepEqual(await readdir(incoming), ['receiving']);
});
