// A consistent copy of the live SQLite store, taken while the bot writes to it. `VACUUM INTO` runs
// in one read transaction, so the copy is the database as of one instant (in WAL mode the bot's
// writes go on meanwhile and are simply not in it); it is written to `<target>.partial`, checked,
// synced to disk (SQLite does not fsync VACUUM INTO's output) and only then renamed into place, so
// a backup that is interrupted never leaves a file that looks complete.
import { existsSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import sqlite3 from 'sqlite3';

/** How long the copy waits for a lock the bot holds (a checkpoint) before failing. */
const BUSY_TIMEOUT_MS = 10_000;

/** A backup that cannot be made as asked; its message says why and what to do. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

/** What a backup wrote. */
export interface BackupResult {
  file: string;
  bytes: number;
}

/** `bot-2026-11-02T12-00-00Z.sqlite`: sortable, and without the colons some filesystems refuse. */
export function backupFileName(at: Date): string {
  return `bot-${at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-')}.sqlite`;
}

/**
 * Where the backup of `databaseFile` goes: `backups/bot-<timestamp>.sqlite` beside the database
 * (data/backups/ for the default store) without an argument; the argument itself when it names a
 * file; the default name inside it when it names a directory (existing, or written with a trailing /).
 */
export function backupTarget(databaseFile: string, argument: string | undefined, at: Date): string {
  if (!argument) return path.join(path.dirname(databaseFile), 'backups', backupFileName(at));
  const isDirectory = /[/\\]$/.test(argument) || (existsSync(argument) && statSync(argument).isDirectory());
  return isDirectory ? path.join(argument, backupFileName(at)) : argument;
}

/** Opens a SQLite file (never creating it). */
function openDatabase(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db: sqlite3.Database = new sqlite3.Database(file, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

const run = (db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<void>((resolve, reject) => db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve())));
const all = <T>(db: sqlite3.Database, sql: string) =>
  new Promise<T[]>((resolve, reject) => db.all<T>(sql, (error: Error | null, rows: T[]) => (error ? reject(error) : resolve(rows))));
const close = (db: sqlite3.Database) => new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));

/** Copies the SQLite database `source` to `target` (which must not exist) while it is in use. */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new BackupRefused(`There is no database at ${source}: check DATABASE_URL.`);
  if (existsSync(target)) throw new BackupRefused(`${target} already exists; name another file.`);
  if (path.resolve(source) === path.resolve(target)) throw new BackupRefused('The backup cannot overwrite the database itself.');
  await mkdir(path.dirname(path.resolve(target)), { recursive: true });
  const partial = `${target}.partial`;
  await rm(partial, { force: true });
  try {
    const db = await openDatabase(source, sqlite3.OPEN_READWRITE);
    try {
      db.configure('busyTimeout', BUSY_TIMEOUT_MS);
      await run(db, 'VACUUM INTO ?', [partial]);
    } finally {
      await close(db);
    }
    await verify(partial);
    const handle = await open(partial, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { file: target, bytes: (await stat(target)).size };
}

/** Throws unless SQLite's quick check passes on the copy. */
async function verify(file: string): Promise<void> {
  const db = await openDatabase(file, sqlite3.OPEN_READONLY);
  try {
    const rows = await all<{ quick_check: string }>(db, 'PRAGMA quick_check');
    const problems = rows.map((row) => row.quick_check).filter((result) => result !== 'ok');
    if (problems.length > 0) throw new Error(`The copy failed SQLite's quick check: ${problems.slice(0, 3).join('; ')}`);
  } finally {
    await close(db);
  }
}
