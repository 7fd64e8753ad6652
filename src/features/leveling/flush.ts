// One XP and coin flush's writes, as a store-writer job (src/db/writer.ts): runs in the writer's
// thread on a SQLite file or PostgreSQL, on the main thread on an in-memory store. Plain inputs and
// outputs, no Sequelize: totals, messages, chat coins and their ledger rows, the daily XP, the flush
// id that makes a retry safe, then the levels the new totals reach and their bonuses.
import { instantParam, jsonOf, jsonRows, storedInstant, together, type SqlParam, type SqlSession } from '../../db/sql';
import { levelFromTotal } from '../../shared/level-curve';
import { utcDay } from '../../core/clock';
import {
  addExcluded,
  col,
  cols,
  GUILD_DAILY_STATS as DAYS,
  qualified,
  setExcluded,
  TRANSACTIONS as LEDGER,
  USER_CURRENCY as WALLETS,
  USER_LEVELS as LEVELS,
} from '../../db/tables';

/** What one member earned since the last flush. */
export interface AccrualRow {
  guildId: string;
  userId: string;
  username: string;
  xp: number;
  coins: number;
  /** Messages counted (every message, not only those that earned XP). */
  messages: number;
}

/** The fields of AccrualRow, and the JSON of accruals the writer receives carries only these. */
const ACCRUAL_FIELDS = { guildId: 'text', userId: 'text', username: 'text', xp: 'integer', coins: 'integer', messages: 'integer' } as const;

/** A member's level and XP into it, as the level fixes carry them. */
const LEVEL_FIELDS = { guildId: 'text', userId: 'text', level: 'integer', xp: 'integer' } as const;
/** Coins credited to a member and what for, as the level bonuses carry them. */
const EARNING_FIELDS = { guildId: 'text', userId: 'text', username: 'text', amount: 'integer', description: 'text' } as const;

/** Accruals as the JSON a flush carries (objects with more fields give only these). */
export function accrualRowsJson(rows: readonly AccrualRow[]): string {
  return jsonOf(rows, ACCRUAL_FIELDS);
}

/** One flush, as the writer receives it. */
export interface AccrualFlush {
  /** Written to accrual_flushes with the rows: a retry of a flush that did commit writes nothing. */
  id: string;
  /** The batch was sent before and its outcome is unknown: look for its id first. */
  retry: boolean;
  /** When the flush began (epoch ms): every row it writes is stamped with it. */
  at: number;
  /** Flush ids recorded before this instant (epoch ms) are forgotten, when set. */
  forgetBefore: number | null;
  /** Coins credited per level gained, by guild (0 where the economy is off). */
  bonusPerLevel: Record<string, number>;
  /** The members' accruals, one per member and guild (accrualRowsJson). */
  rows: string;
}

/** A member who reached a new level in a flush, as the writer reports it. */
export interface LevelReached {
  guildId: string;
  userId: string;
  username: string;
  from: number;
  to: number;
  /** Coins credited for the levels gained. */
  bonus: number;
}

/** What a flush did: nothing when its id was already written (a retry of a committed flush), else its level-ups. */
export interface AccrualFlushResult {
  written: boolean;
  levelUps: LevelReached[];
}

/** A member's stored level after the flush added their XP. */
interface Totals {
  guildId: string;
  userId: string;
  username: string | null;
  level: number | string;
  xp: number | string;
  totalXp: number | string;
}

/**
 * Writes one flush in the session's transaction. Members who earned XP have their totals added and
 * read back; members who only posted within their cooldown have only their counts added (their
 * level cannot change, and leaving the total alone spares the leaderboard's index: a third of the
 * cost of a flush of 5,000 members). Statements that do not need each other's results go together.
 */
export async function writeAccruals(session: SqlSession, flush: AccrualFlush): Promise<AccrualFlushResult> {
  const { dialect } = session;
  if (flush.retry && (await session.query('SELECT 1 AS "found" FROM accrual_flushes WHERE id = $1', [flush.id])).length > 0) {
    return { written: false, levelUps: [] };
  }
  const at = storedInstant(flush.at);
  // The statements on the accruals bind the rows as $1 and the instant as $2 (`params`).
  const params: SqlParam[] = [flush.rows, at];
  const { from, field: f } = jsonRows(dialect, '$1', ACCRUAL_FIELDS);
  const now = instantParam(dialect, '$2');
  const upsertLevels = (where: string, totalXp: string, set: string, returning = '') =>
    session.query<Totals>(
      `INSERT INTO ${LEVELS.name} (${cols(LEVELS, 'guildId', 'userId', 'username', 'level', 'xp', 'totalXp', 'messagesCount', 'updatedAt')})
       SELECT ${f.guildId}, ${f.userId}, ${f.username}, 1, 0, ${totalXp}, ${f.messages}, ${now} FROM ${from} WHERE ${where}
       ON CONFLICT (${cols(LEVELS, 'guildId', 'userId')}) DO UPDATE SET ${set}
         ${addExcluded(LEVELS, 'messagesCount')}, ${setExcluded(LEVELS, 'username', 'updatedAt')}
       ${returning}`,
      params,
    );
  const [current] = await together(session, [
    // The new totals come back from the upsert itself.
    () =>
      upsertLevels(
        `${f.xp} > 0`,
        f.xp,
        `${addExcluded(LEVELS, 'totalXp')},`,
        `RETURNING ${cols(LEVELS, 'guildId', 'userId', 'username', 'level', 'xp', 'totalXp')}`,
      ),
    () => upsertLevels(`${f.xp} = 0 AND ${f.messages} > 0`, '0', ''),
    () =>
      creditEarnings(
        session,
        { from, where: `${f.coins} > 0`, guildId: f.guildId, userId: f.userId, username: f.username, amount: f.coins, description: `'Chat rewards'` },
        params,
      ),
    // The day is bound as $2 here (a statement binds exactly the parameters it names).
    () =>
      session.query(
        `INSERT INTO ${DAYS.name} (${cols(DAYS, 'guildId', 'day', 'messages', 'joins', 'leaves', 'commands', 'xp')})
       SELECT ${f.guildId}, $2, 0, 0, 0, 0, SUM(${f.xp}) FROM ${from} WHERE ${f.xp} > 0 GROUP BY ${f.guildId}
       ON CONFLICT (${cols(DAYS, 'guildId', 'day')}) DO UPDATE SET ${addExcluded(DAYS, 'xp')}`,
        [flush.rows, utcDay(new Date(flush.at))],
      ),
    () => session.query(`INSERT INTO accrual_flushes (id, "createdAt") VALUES ($1, ${instantParam(dialect, '$2')})`, [flush.id, at]),
    () =>
      flush.forgetBefore === null
        ? Promise.resolve([])
        : session.query(`DELETE FROM accrual_flushes WHERE "createdAt" < ${instantParam(dialect, '$1')}`, [storedInstant(flush.forgetBefore)]),
  ] as const);

  // The level follows the new total: a change is a level-up (or a fix after an admin change).
  const changed: { guildId: string; userId: string; level: number; xp: number }[] = [];
  const levelUps: LevelReached[] = [];
  for (const row of current) {
    const next = levelFromTotal(Number(row.totalXp));
    const from = Number(row.level);
    if (next.level === from && next.xp === Number(row.xp)) continue;
    changed.push({ guildId: row.guildId, userId: row.userId, ...next });
    if (next.level <= from) continue;
    const bonus = (flush.bonusPerLevel[row.guildId] ?? 0) * (next.level - from);
    levelUps.push({ guildId: row.guildId, userId: row.userId, username: row.username ?? row.userId, from, to: next.level, bonus });
  }
  const bonuses = levelUps
    .filter((levelUp) => levelUp.bonus > 0)
    .map((levelUp) => ({
      guildId: levelUp.guildId,
      userId: levelUp.userId,
      username: levelUp.username,
      amount: levelUp.bonus,
      description: `Level ${levelUp.to} bonus`,
    }));
  const levels = jsonRows(dialect, '$1', LEVEL_FIELDS);
  const earned = jsonRows(dialect, '$1', EARNING_FIELDS);
  await together(session, [
    () =>
      changed.length === 0
        ? Promise.resolve([])
        : session.query(
            `UPDATE ${LEVELS.name} SET ${col(LEVELS, 'level')} = ${levels.field.level}, ${col(LEVELS, 'xp')} = ${levels.field.xp} FROM ${levels.from}
           WHERE ${qualified(LEVELS, 'guildId')} = ${levels.field.guildId} AND ${qualified(LEVELS, 'userId')} = ${levels.field.userId}`,
            [jsonOf(changed, LEVEL_FIELDS)],
          ),
    () =>
      bonuses.length === 0
        ? Promise.resolve()
        : creditEarnings(session, { from: earned.from, where: 'true', ...earned.field }, [jsonOf(bonuses, EARNING_FIELDS), at]),
  ] as const);
  return { written: true, levelUps };
}

/**
 * Earnings as a table to credit from: what follows FROM and WHERE, and the expressions of each
 * member's coins and what they are for. Its statements bind the rows as $1 and the instant as $2.
 */
interface Earnings {
  from: string;
  where: string;
  guildId: string;
  userId: string;
  username: string;
  amount: string;
  description: string;
}

/**
 * Credits earnings in the session's transaction (one per member and guild: PostgreSQL refuses a
 * statement that updates a row twice): each wallet grows by its amount (made when missing) and
 * gets an `earn` row, so the balance stays the sum of its rows.
 */
async function creditEarnings(session: SqlSession, e: Earnings, params: readonly SqlParam[]): Promise<void> {
  const now = instantParam(session.dialect, '$2');
  await together(session, [
    () =>
      session.query(
        `INSERT INTO ${WALLETS.name} (${cols(WALLETS, 'guildId', 'userId', 'username', 'balance', 'totalEarned', 'updatedAt')})
       SELECT ${e.guildId}, ${e.userId}, ${e.username}, ${e.amount}, ${e.amount}, ${now} FROM ${e.from} WHERE ${e.where}
       ON CONFLICT (${cols(WALLETS, 'guildId', 'userId')}) DO UPDATE SET
         ${addExcluded(WALLETS, 'balance', 'totalEarned')}, ${setExcluded(WALLETS, 'username', 'updatedAt')}`,
        params,
      ),
    () =>
      session.query(
        `INSERT INTO ${LEDGER.name} (${cols(LEDGER, 'guildId', 'userId', 'type', 'amount', 'description', 'createdAt')})
       SELECT ${e.guildId}, ${e.userId}, 'earn', ${e.amount}, ${e.description}, ${now} FROM ${e.from} WHERE ${e.where}`,
        params,
      ),
  ] as const);
}
