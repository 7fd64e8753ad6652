// Importing levels from a CSV or MEE6's leaderboard export: read and validated first (every bad row
// named by its line, nothing applied), previewed (who, from, to), then applied in one transaction
// that keeps a backup of the rows it replaces, so an import is undone like a reset (backups.ts).
import type { Actor } from '../../core/actor';
import type { Services } from '../../core/services';
import { memberName } from '../../core/names';
import { levelFromTotal } from '../../shared/leveling';
import { IMPORT_FORMAT_LABELS, PREVIEW_ROWS, type ImportPreview, type LevelChangeResult, type LevelImportInput } from '../../shared/level-admin';
import { counted } from '../../shared/words';
import { takeBackup } from './backups';
import { parseImport, type ImportedRow } from './import-parse';
import { inLevelTransaction, levelOf, lockRows, replaceRows, rowAt, syncInBackground, type LevelRowSnapshot } from './level-rows';

/** The imported rows as the members' new rows: the XP replaced, the level from it, names and message counts kept. */
function targetsOf(rows: readonly ImportedRow[], before: ReadonlyMap<string, LevelRowSnapshot>) {
  return rows.map((row) => {
    const current = before.get(row.userId);
    return {
      userId: row.userId,
      row: rowAt(row.userId, row.xp, { username: current?.username ?? row.username, messagesCount: current?.messagesCount ?? row.messages ?? 0 }),
    };
  });
}

/** What an import would do, without doing it. */
export async function previewImport(services: Services, guildId: string, input: LevelImportInput): Promise<ImportPreview> {
  const rows = parseImport(input.format, input.content);
  // A preview writes nothing: a plain read, no lock.
  const before = await lockRows(
    services,
    guildId,
    null,
    rows.map((row) => row.userId),
  );
  let changed = 0;
  let added = 0;
  const preview = rows.map((row) => {
    const current = before.get(row.userId);
    if (!current) added += 1;
    if ((current?.totalXp ?? 0) !== row.xp || !current) changed += 1;
    return {
      line: row.line,
      userId: row.userId,
      username: memberName(services, guildId, row.userId, current?.username ?? row.username),
      fromXp: current?.totalXp ?? 0,
      fromLevel: levelOf(current),
      toXp: row.xp,
      toLevel: levelFromTotal(row.xp).level,
    };
  });
  return { rows: preview.slice(0, PREVIEW_ROWS), total: rows.length, changed, added };
}

/** Applies an import in one transaction, after a backup of the rows it replaces; reward roles follow. */
export async function applyImport(services: Services, guildId: string, input: LevelImportInput, actor: Actor): Promise<LevelChangeResult> {
  const rows = parseImport(input.format, input.content);
  const userIds = rows.map((row) => row.userId);
  const summary = `Imported levels from ${IMPORT_FORMAT_LABELS[input.format]} (${counted(rows.length, 'member')})`;
  const result = await inLevelTransaction(services, async (transaction) => {
    const before = await lockRows(services, guildId, transaction, userIds);
    const backup = await takeBackup(services, guildId, transaction, { kind: 'import', userId: null, summary }, userIds, before, actor);
    const changes = await replaceRows(services, guildId, transaction, before, targetsOf(rows, before));
    return { backup, changes };
  });
  services.readCache.invalidate(`${guildId}:`);
  syncInBackground(services, guildId, result.changes);
  return {
    members: rows.length,
    backupId: result.backup.id,
    message: `Imported the XP of ${counted(rows.length, 'member')}. The backups list can undo it for 7 days.`,
  };
}
