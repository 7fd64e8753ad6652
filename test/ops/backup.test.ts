// `npm run backup` on the built product, against a SQLite file another process writes to without
// pause: the copy passes integrity_check and holds a consistent prefix of the writes (whole
// transactions, no gaps, its totals row matching its rows). On PostgreSQL it refuses.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sqlite3 from 'sqlite3';
import { buildProduct, type BuiltProduct } from '../helpers/build';
import { waitFor } from '../helpers/wait';
import { BATCH } from './sqlite-writer';

const root = path.resolve(import.meta.dirname, '../..');

/** Runs `npm run backup [-- argument]` in the built product; resolves with its exit code and output. */
function npmBackup(cwd: string, databaseUrl: string, argument?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'backup', ...(argument ? ['--', argument] : [])],
      { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Rows of a query on a SQLite file, opened read-only. */
async function query<T>(file: string, sql: string): Promise<T[]> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
  });
  try {
    return await new Promise<T[]>((resolve, reject) => db.all<T>(sql, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows))));
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

/** What a copy holds: its integrity, its writes and its totals row. */
async function contents(file: string) {
  const [integrity] = await query<{ integrity_check: string }>(file, 'PRAGMA integrity_check');
  const [writes] = await query<{ count: number; min: number | null; max: number | null; sum: number | null }>(
    file,
    'SELECT COUNT(*) AS count, MIN(seq) AS min, MAX(seq) AS max, SUM(seq) AS sum FROM writes',
  );
  const [totals] = await query<{ count: number; sum: number }>(file, 'SELECT count, sum FROM totals WHERE id = 1');
  return { integrity: integrity?.integrity_check, writes, totals };
}

/** Asserts the copy is whole and a consistent prefix of the writer's transactions. */
async function assertConsistentPrefix(file: string): Promise<number> {
  const { integrity, writes, totals } = await contents(file);
  assert.equal(integrity, 'ok');
  assert.ok(writes && totals);
  assert.ok(writes.count > 0, 'the copy holds writes');
  assert.equal(writes.min, 1);
  assert.equal(writes.max, writes.count, 'no gaps');
  assert.equal(writes.count % BATCH, 0, 'whole transactions only');
  assert.deepEqual({ count: totals.count, sum: totals.sum }, { count: writes.count, sum: writes.sum }, 'the totals row matches the rows');
  return writes.count;
}

describe('npm run backup', () => {
  let built: BuiltProduct;
  let dir: string;
  let writer: ChildProcess;
  let transactions = 0;
  const live = () => path.join(dir, 'live.sqlite');

  before(async () => {
    built = await buildProduct();
    dir = await mkdtemp(path.join(tmpdir(), 'backup-test-'));
    writer = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/ops/sqlite-writer.ts'), live()], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    writer.stdout?.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString().matchAll(/^c (\d+)$/gm)) transactions = Math.max(transactions, Number(match[1]));
    });
    const deadline = Date.now() + 20_000;
    while (transactions < 100) {
      if (Date.now() > deadline || writer.exitCode !== null) throw new Error(`the writer did not get going (${transactions} transactions)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  after(async () => {
    if (writer.exitCode === null) {
      writer.kill('SIGKILL');
      await once(writer, 'exit');
    }
    await built?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('copies the store while another process writes to it: the copy is whole and a consistent prefix of the writes', async () => {
    const target = path.join(dir, 'copies', 'one.sqlite');
    const before = transactions;
    const result = await npmBackup(built.dir, `sqlite:${live()}`, target);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout.trim(), new RegExp(`^Backup written: ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+(\\.\\d)? (KB|MB)\\)$`));
    assert.ok(!existsSync(`${target}.partial`));
    const copied = await assertConsistentPrefix(target);
    // The writer went on during and after the copy: the copy is a prefix, not the whole.
    assert.ok(copied >= before * BATCH, `${copied} rows copied, ${before * BATCH} were committed before the backup began`);
    const afterwards = transactions;
    await waitFor(() => transactions >= afterwards + 10, 20_000, 'the writer to go on after the copy');
    const [current] = await query<{ count: number }>(live(), 'SELECT COUNT(*) AS count FROM writes');
    assert.ok((current?.count ?? 0) > copied);
  });

  test('without an argument it writes backups/bot-<timestamp>.sqlite beside the database; a directory argument gets that name too', async () => {
    const result = await npmBackup(built.dir, `sqlite:${live()}`);
    assert.equal(result.code, 0, result.stderr);
    const written = /^Backup written: (.+) \(/.exec(result.stdout.trim())?.[1] ?? '';
    assert.match(path.relative(dir, written), /^backups\/bot-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.sqlite$/);
    await assertConsistentPrefix(written);

    const into = await npmBackup(built.dir, `sqlite:${live()}`, `${path.join(dir, 'nightly')}/`);
    assert.equal(into.code, 0, into.stderr);
    assert.deepEqual((await readdir(path.join(dir, 'nightly'))).filter((name) => /^bot-.*\.sqlite$/.test(name)).length, 1);
  });

  test('refuses to overwrite an existing file', async () => {
    const target = path.join(dir, 'copies', 'twice.sqlite');
    assert.equal((await npmBackup(built.dir, `sqlite:${live()}`, target)).code, 0);
    const again = await npmBackup(built.dir, `sqlite:${live()}`, target);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /Backup refused: .*twice\.sqlite already exists/);
  });

  test('refuses PostgreSQL clearly and points at pg_dump', async () => {
    const result = await npmBackup(built.dir, 'postgres://postgres@127.0.0.1:5432/bot');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Backup refused: npm run backup copies SQLite stores only; this DATABASE_URL is PostgreSQL\. Back it up with pg_dump/m);
    assert.equal(result.stdout.trim(), '');
  });
});
