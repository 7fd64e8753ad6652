// Resets with undo (Carl-bot's resetall/restore): before a reset (one member or the whole server)
// or an import replaces level rows, the rows as they were are kept in a backup, in the same
// transaction; for BACKUP_DAYS any admin can restore it in one click. A restore replaces the
// covered members' rows with the backup's (RESTORE_RULE: XP earned since is replaced; members the
// backup does not cover keep theirs). Expired backups are pruned on the product clock.
import { Op, type Transaction } from 'sequelize';
import type { Actor } from '../../core/actor';
import { Conflict, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { memberName } from '../../core/names';
import type { LevelBackup as LevelBackupRow } from '../../db/models/level-backup';
import { acrossGuilds } from '../../db/cross-guild';
import { BACKUP_DAYS, BACKUP_KINDS, type BackupKind, type LevelBackup, type LevelChangeResult } from '../../shared/level-admin';
import { inLevelTransaction, lockRows, replaceRows, syncInBackground, type LevelRowSnapshot, type RowTarget } from './level-rows';
import { counted } from '../../shared/words';

const DAY_MS = 86_400_000;

/** What a backup keeps: each covered member's row as it was (null: they had none). */
interface BackupSnapshot {
  members: RowTarget[];
}

/** What a change that takes a backup says about itself. */
export interface BackupInfo {
  kind: BackupKind;
  userId: string | null;
  summary: string;
}

/** Keeps `before` (the rows of every member in `userIds`) as a backup, in the change's transaction. */
export async function takeBackup(
  services: Services,
  guildId: string,
  transaction: Transaction,
  info: BackupInfo,
  userIds: readonly string[],
  before: ReadonlyMap<string, LevelRowSnapshot>,
  actor: Actor,
): Promise<LevelBackupRow> {
  const snapshot: BackupSnapshot = { members: userIds.map((userId) => ({ userId, row: before.get(userId) ?? null })) };
  const now = services.clock.ms();
  return services.store.guild(guildId).LevelBackup.create(
    {
      kind: info.kind,
      userId: info.userId,
      summary: info.summary.slice(0, 200),
      memberCount: userIds.length,
      snapshot: JSON.stringify(snapshot),
      actorId: actor.userId,
      actorName: actor.name,
      createdAt: new Date(now),
      expiresAt: new Date(now + BACKUP_DAYS * DAY_MS),
      restoredAt: null,
      restoredByName: null,
    },
    { transaction },
  );
}

/** Forgets this guild's backups past their time. */
export async function pruneExpiredBackups(services: Services, guildId: string): Promise<number> {
  return services.store.guild(guildId).LevelBackup.destroy({ where: { expiresAt: { [Op.lte]: services.clock.now() } } });
}

/** Forgets every guild's backups past their time (hourly, so a guild nobody looks at does not keep them). */
export async function pruneAllExpiredBackups(services: Services): Promise<void> {
  await acrossGuilds(services.store, 'expired level backups').LevelBackup.destroy({ where: { expiresAt: { [Op.lte]: services.clock.now() } } });
}

/** A backup as the dashboard shows it. */
function presentBackup(row: LevelBackupRow, now: number): LevelBackup {
  return {
    id: row.id,
    kind: (BACKUP_KINDS as readonly string[]).includes(row.kind) ? (row.kind as BackupKind) : 'reset-server',
    summary: row.summary,
    memberCount: row.memberCount,
    actorName: row.actorName,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    daysLeft: Math.max(0, Math.ceil((row.expiresAt.getTime() - now) / DAY_MS)),
    restoredAt: row.restoredAt?.toISOString() ?? null,
    restoredByName: row.restoredByName,
  };
}

/** The backups that can still be restored (or were), newest first; expired ones are pruned first. */
export async function listBackups(services: Services, guildId: string): Promise<LevelBackup[]> {
  await pruneExpiredBackups(services, guildId);
  const rows = await services.store.guild(guildId).LevelBackup.findAll({
    attributes: { exclude: ['snapshot'] },
    order: [['id', 'DESC']],
    limit: 50,
  });
  const now = services.clock.ms();
  return rows.map((row) => presentBackup(row, now));
}

/** Resets one member's XP and level (userId) or everyone's, after a backup; their reward roles follow. */
export async function resetLevels(services: Services, guildId: string, input: { userId?: string }, actor: Actor): Promise<LevelChangeResult> {
  const userId = input.userId ?? null;
  const result = await inLevelTransaction(services, async (transaction) => {
    const before = await lockRows(services, guildId, transaction, userId === null ? null : [userId]);
    if (before.size === 0) {
      if (userId === null) throw new Conflict('Nobody has XP in this server yet: there is nothing to reset.');
      const sentence = `${memberName(services, guildId, userId, null)} has no XP in this server: there is nothing to reset.`;
      throw InvalidInput.field('userId', sentence, sentence);
    }
    const userIds = [...before.keys()];
    const name = userId === null ? null : memberName(services, guildId, userId, before.get(userId)?.username ?? null);
    const summary = name === null ? `Reset the whole server’s levels (${counted(userIds.length, 'member')})` : `Reset ${name}’s XP and level`;
    const backup = await takeBackup(
      services,
      guildId,
      transaction,
      { kind: userId ? 'reset-member' : 'reset-server', userId, summary },
      userIds,
      before,
      actor,
    );
    const changes = await replaceRows(
      services,
      guildId,
      transaction,
      before,
      userIds.map((id) => ({ userId: id, row: null })),
    );
    return { changes, backup, name, members: userIds.length };
  });
  services.readCache.invalidate(`${guildId}:`);
  syncInBackground(services, guildId, result.changes);
  const undo = `Restore it within ${BACKUP_DAYS} days from the backups list.`;
  return {
    members: result.members,
    backupId: result.backup.id,
    message: result.name
      ? `${result.name}’s XP and level are reset. ${undo}`
      : `Every member’s XP and level are reset (${counted(result.members, 'member')}). ${undo}`,
  };
}

/** Restores a backup: the covered members' rows become the backup's, in one transaction; their reward roles follow. */
export async function restoreBackup(services: Services, guildId: string, backupId: number, actor: Actor): Promise<LevelChangeResult> {
  const backups = services.store.guild(guildId).LevelBackup;
  const result = await inLevelTransaction(services, async (transaction) => {
    const backup = await backups.findOne({ where: { id: backupId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!backup || backup.expiresAt.getTime() <= services.clock.ms()) {
      throw new NotFound(`That backup does not exist in this server, or its ${BACKUP_DAYS} days are over.`);
    }
    if (backup.restoredAt) throw new Conflict(`That backup was already restored${backup.restoredByName ? ` by ${backup.restoredByName}` : ''}.`);
    const snapshot = JSON.parse(backup.snapshot) as BackupSnapshot;
    const before = await lockRows(
      services,
      guildId,
      transaction,
      snapshot.members.map((member) => member.userId),
    );
    const changes = await replaceRows(services, guildId, transaction, before, snapshot.members);
    await backups.update({ restoredAt: services.clock.now(), restoredByName: actor.name }, { where: { id: backup.id }, transaction });
    return { changes, members: snapshot.members.length, summary: backup.summary };
  });
  services.readCache.invalidate(`${guildId}:`);
  syncInBackground(services, guildId, result.changes);
  return { members: result.members, backupId: null, message: `Restored ${counted(result.members, 'member')} as they were before “${result.summary}”.` };
}
