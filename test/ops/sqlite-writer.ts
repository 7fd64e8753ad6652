// A process that writes to a SQLite file without pause, as the bot does, until killed: each
// transaction appends BATCH rows to `writes` (seq 1, 2, 3, ... with no gaps) and updates the one row
// of `totals` to their count and sum. A copy taken mid-transaction would show rows that `totals`
// does not count (or the reverse), or a gap. Not a test file: backup.test.ts spawns it.
//
// Prints `ready` once the first transaction is committed, then `c <transactions>` every 50.
import sqlite3 from 'sqlite3';

/** Rows per transaction. */
export const BATCH = 10;

const file = process.argv[2];
if (file) {
  const db = new sqlite3.Database(file);
  const exec = (sql: string, params: unknown[] = []) =>
    new Promise<void>((resolve, reject) => db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve())));
  db.configure('busyTimeout', 10_000);
  await exec('PRAGMA journal_mode = WAL');
  await exec('CREATE TABLE writes (seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)');
  await exec('CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL, sum INTEGER NOT NULL)');
  await exec('INSERT INTO totals (id, count, sum) VALUES (1, 0, 0)');
  let seq = 0;
  let sum = 0;
  for (let transactions = 1; ; transactions++) {
    await exec('BEGIN IMMEDIATE');
    for (let i = 0; i < BATCH; i++) {
      seq += 1;
      sum += seq;
      // A payload of some size, so the file grows past a few pages quickly.
      await exec('INSERT INTO writes (seq, payload) VALUES (?, ?)', [seq, `row ${seq} `.padEnd(200, '.')]);
    }
    await exec('UPDATE totals SET count = ?, sum = ? WHERE id = 1', [seq, sum]);
    await exec('COMMIT');
    if (transactions === 1) process.stdout.write('ready\n');
    if (transactions % 50 === 0) process.stdout.write(`c ${transactions}\n`);
  }
}
