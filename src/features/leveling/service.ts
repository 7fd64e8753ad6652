import { Op, fn, col } from 'sequelize';
import type { Services } from '../../core/services';
import { levelFromTotal, xpToNextLevel, type LeaderboardPage, type LevelingStats, type Profile } from '../../shared/leveling';
import { utcDay } from '../../core/clock';
import { readCacheKey } from '../../core/read-cache';
import { memberName } from '../../core/names';

const DAY_MS = 86_400_000;

/** The leaderboard by total XP, paged (cached between flushes). */
export function leaderboard(services: Services, guildId: string, page: number, pageSize: number): Promise<LeaderboardPage> {
  return services.readCache.get(`${readCacheKey(guildId, 'chat')}leaderboard:${page}:${pageSize}`, async () => {
    const levels = services.store.guild(guildId).UserLevel;
    const [rows, total] = await Promise.all([
      levels.findAll({
        order: [
          ['totalXp', 'DESC'],
          ['userId', 'ASC'],
        ],
        limit: pageSize,
        offset: (page - 1) * pageSize,
        attributes: ['userId', 'username', 'level', 'totalXp', 'messagesCount'],
      }),
      levels.count(),
    ]);
    return {
      entries: rows.map((row, index) => ({
        rank: (page - 1) * pageSize + index + 1,
        userId: row.userId,
        username: memberName(services, guildId, row.userId, row.username),
        level: row.level,
        totalXp: row.totalXp,
        messagesCount: row.messagesCount,
      })),
      page,
      pageSize,
      total,
    };
  });
}

/** The leveling page's cards and 30 days of XP. */
export async function levelingStats(services: Services, guildId: string): Promise<LevelingStats> {
  const now = services.clock.ms();
  const days = Array.from({ length: 30 }, (_, i) => utcDay(new Date(now - (29 - i) * DAY_MS)));
  const levels = services.store.guild(guildId).UserLevel;
  const [totalUsers, highest, rows] = await Promise.all([
    levels.count(),
    // The level follows from the XP, and the leaderboard's index (guild, totalXp) answers MAX(totalXp)
    // with one seek, where MAX(level) read every member's row.
    levels.findAll({ attributes: [[fn('MAX', col('totalXp')), 'highest']], raw: true }),
    services.store.guild(guildId).GuildDailyStats.findAll({ where: { day: { [Op.gte]: days[0] ?? '' } }, attributes: ['day', 'xp'] }),
  ]);
  const byDay = new Map(rows.map((row) => [row.day, row.xp]));
  return {
    totalUsers,
    highestLevel: totalUsers === 0 ? 0 : levelFromTotal(Number((highest[0] as unknown as { highest: number | string | null } | undefined)?.highest ?? 0)).level,
    daily: days.map((date) => ({ date, xp: Number(byDay.get(date) ?? 0) })),
  };
}

/** A member's rank card: level, XP into it and to the next, place, coins. */
export async function profile(services: Services, guildId: string, userId: string): Promise<Profile> {
  const levels = services.store.guild(guildId).UserLevel;
  const [row, wallet, settings] = await Promise.all([
    levels.findOne({ where: { userId } }),
    services.store.guild(guildId).UserCurrency.findOne({ where: { userId } }),
    services.settings.get(guildId),
  ]);
  const { level, xp } = levelFromTotal(row?.totalXp ?? 0);
  const ahead = row ? await levels.count({ where: { totalXp: { [Op.gt]: row.totalXp } } }) : null;
  return {
    userId,
    username: memberName(services, guildId, userId, row?.username ?? wallet?.username ?? null),
    level,
    xp,
    xpToNext: xpToNextLevel(level) - xp,
    totalXp: row?.totalXp ?? 0,
    messagesCount: row?.messagesCount ?? 0,
    rank: ahead === null ? null : ahead + 1,
    balance: wallet?.balance ?? 0,
    totalEarned: wallet?.totalEarned ?? 0,
    currencyName: settings.currencyName,
  };
}
