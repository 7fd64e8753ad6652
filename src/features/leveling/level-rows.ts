// Members' level rows as resets, restores, imports and adjustments read and replace them: inside
// one transaction, the rows are read locked (FOR UPDATE on PostgreSQL; SQLite's IMMEDIATE
// transactions already hold the write lock), so the XP flush adds what members earn either before
// the snapshot is read or after the change commits, never in between. Then reward roles follow the
// new levels (the leveling feature's own syncRewards, as after a level-up).
import { Op, UniqueConstraintError, type Attributes, type Transaction, type WhereOptions } from 'sequelize';
import type { UserLevel } from '../../db/models/member';
import type { Services } from '../../core/services';
import { FIRST_LEVEL, levelFromTotal } from '../../shared/leveling';
import { syncRewards } from './rewards';

/** A member's level row as a backup keeps it. */
export interface LevelRowSnapshot {
  userId: string;
  username: string | null;
  level: number;
  xp: number;
  totalXp: number;
  messagesCount: number;
}

/** A member a change touches, and their row after it (null: no row, no XP). */
export interface RowTarget {
  userId: string;
  row: LevelRowSnapshot | null;
}

/** A member's level before and after a change. */
export interface LevelChange {
  userId: string;
  from: number;
  to: number;
}

/** Rows per statement (SQLite binds at most 999 parameters in older builds). */
const CHUNK = 500;

/** `items` in slices of CHUNK. */
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The level of a row, or the first level for none. */
export const levelOf = (row: Pick<LevelRowSnapshot, 'level'> | null | undefined) => row?.level ?? FIRST_LEVEL;

/** A row whose level and XP into it follow from its total (the flush's rule). */
export function rowAt(userId: string, totalXp: number, rest: { username: string | null; messagesCount: number }): LevelRowSnapshot {
  return { userId, ...rest, totalXp, ...levelFromTotal(totalXp) };
}

/**
 * Runs `work` in one transaction, again (up to three times) when a row it inserts was inserted
 * meanwhile by the XP flush: on PostgreSQL a member with no row yet cannot be locked, so a flush
 * can write their first XP between the read and the insert; the second run reads it.
 */
export async function inLevelTransaction<T>(services: Services, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await services.store.sequelize.transaction(work);
    } catch (error) {
      if (!(error instanceof UniqueConstraintError) || attempt >= 3) throw error;
    }
  }
}

/** Reads these members' rows (every member's with `userIds` null), by member; locked when read in a transaction (null: a plain read). */
export async function lockRows(
  services: Services,
  guildId: string,
  transaction: Transaction | null,
  userIds: readonly string[] | null,
): Promise<Map<string, LevelRowSnapshot>> {
  const levels = services.store.guild(guildId).UserLevel;
  const attributes = ['userId', 'username', 'level', 'xp', 'totalXp', 'messagesCount'] as const;
  const read = (where: WhereOptions<Attributes<UserLevel>>) =>
    levels.findAll({ where, attributes: [...attributes], ...(transaction ? { transaction, lock: transaction.LOCK.UPDATE } : {}) });
  const rows = userIds === null ? await read({}) : (await Promise.all(chunks(userIds).map((ids) => read({ userId: { [Op.in]: ids } })))).flat();
  return new Map(
    rows.map((row) => [
      row.userId,
      { userId: row.userId, username: row.username, level: row.level, xp: row.xp, totalXp: row.totalXp, messagesCount: row.messagesCount },
    ]),
  );
}

/**
 * Replaces these members' rows with the targets' (deleting those with none), in the transaction;
 * returns the level changes. Only rows read locked (`before`) are deleted: a member who had no row
 * could not be locked, so their row is inserted, never put over one, and a first XP the flush
 * wrote meanwhile fails the insert (a unique violation: inLevelTransaction runs the change again
 * and reads it) instead of being deleted unseen.
 */
export async function replaceRows(
  services: Services,
  guildId: string,
  transaction: Transaction,
  before: ReadonlyMap<string, LevelRowSnapshot>,
  targets: readonly RowTarget[],
): Promise<LevelChange[]> {
  const levels = services.store.guild(guildId).UserLevel;
  const updatedAt = services.clock.now();
  for (const slice of chunks(targets)) {
    const locked = slice.filter((target) => before.has(target.userId)).map((target) => target.userId);
    if (locked.length > 0) await levels.destroy({ where: { userId: { [Op.in]: locked } }, transaction });
    const rows = slice.flatMap((target) => (target.row ? [{ ...target.row, userId: target.userId, updatedAt }] : []));
    if (rows.length > 0) await levels.bulkCreate(rows, { transaction });
  }
  return targets
    .map((target) => ({ userId: target.userId, from: levelOf(before.get(target.userId)), to: levelOf(target.row) }))
    .filter((change) => change.from !== change.to);
}

/**
 * Gives and takes reward roles for members whose level changed by an admin's hand, as after a
 * level-up (syncRewards: the reward rules, stacking or replacing). Members one at a time, so a
 * server-wide change does not flood Discord; a refusal is logged, notified and returned (the first).
 */
export async function syncChangedLevels(services: Services, guildId: string, changes: readonly LevelChange[]): Promise<string | null> {
  if (changes.length === 0 || (await services.store.guild(guildId).LevelReward.count()) === 0) return null;
  let first: string | null = null;
  for (const change of changes) {
    try {
      await syncRewards(services, guildId, change.userId, change.to);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      first ??= problem;
      services.logger.warn({ err: error, guildId }, 'could not change a level reward after an admin change');
      void services.notifier.notify(guildId, { event: 'error', title: 'Level reward failed', description: problem, data: { userId: change.userId } });
    }
  }
  return first;
}

/** Syncs rewards in the background (a server-wide change answers before every member's roles are done). */
export function syncInBackground(services: Services, guildId: string, changes: readonly LevelChange[]): void {
  void syncChangedLevels(services, guildId, changes).catch((error: unknown) => services.logger.error({ err: error, guildId }, 'level reward sync failed'));
}
