// `npm run backup [path]`: a consistent copy of the SQLite store, safe while the bot runs (see
// src/db/backup.ts). Reads DATABASE_URL as the product does (.env included). Prints the copy's path
// and size; on PostgreSQL it refuses and points at pg_dump.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { BackupRefused, backupSqlite, backupTarget } from './db/backup';
import { sqliteFile } from './db/url';

/** The message for a PostgreSQL store, whose backups are pg_dump's job. */
export const POSTGRES_REFUSAL =
  'npm run backup copies SQLite stores only; this DATABASE_URL is PostgreSQL. Back it up with pg_dump, e.g. pg_dump --format=custom --file=bot.dump ' +
  '"$DATABASE_URL" (restore with pg_restore).';

/** 1.2 MB, 340 KB, 512 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** Makes the backup; returns the process's exit code. */
async function main(argument: string | undefined): Promise<number> {
  const dotenv = await import('dotenv');
  dotenv.config({ quiet: true });
  try {
    const { databaseUrl } = loadConfig();
    const file = sqliteFile(databaseUrl);
    if (file === null) throw new BackupRefused(POSTGRES_REFUSAL);
    if (file === ':memory:') throw new BackupRefused('DATABASE_URL names an in-memory database: there is nothing on disk to back up.');
    const { file: written, bytes } = await backupSqlite(file, backupTarget(file, argument, new Date()));
    process.stdout.write(`Backup written: ${written} (${formatBytes(bytes)})\n`);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else if (error instanceof BackupRefused) console.error(`Backup refused: ${error.message}`);
    else console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

const isEntry = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isEntry) process.exitCode = await main(process.argv[2]);
