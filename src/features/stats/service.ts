import { Op, fn, col } from 'sequelize';
import type { GuildSummary } from '../../bot/gateway';
import type { Store } from '../../db/store';
import type { ServerStats } from '../../shared/auth';
import type { ServerOverview as Overview } from '../../shared/servers';
import { utcDay } from '../../core/clock';
import { acrossGuilds } from '../../db/cross-guild';

/** "Active" means posted within this window. */
export const ACTIVE_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** Days in the dashboard's activity chart. */
export const ACTIVITY_DAYS = 30;

async function sumOf(model: { sum(field: string, options: object): Promise<number | null> }, field: string, guildIds: string[]): Promise<number> {
  if (!guildIds.length) return 0;
  return Number((await model.sum(field, { where: { guildId: { [Op.in]: guildIds } } })) ?? 0);
}

/** Members who posted in any of the guilds within the active window (each member once). */
async function activeMembers(store: Store, guildIds: string[], now: Date): Promise<number> {
  if (!guildIds.length) return 0;
  const rows = await acrossGuilds(store, "a person's servers").MemberActivity.findAll({
    attributes: [[fn('COUNT', fn('DISTINCT', col('userId'))), 'count']],
    where: { guildId: { [Op.in]: guildIds }, lastMessageAt: { [Op.gte]: new Date(now.getTime() - ACTIVE_WINDOW_MS) } },
    raw: true,
  });
  return Number((rows[0] as unknown as { count?: number | string } | undefined)?.count ?? 0);
}

/** Totals for the overview dashboard over the given guilds (those the account may open that have the bot). */
export async function serverStats(store: Store, guilds: GuildSummary[], now = new Date()): Promise<ServerStats> {
  const ids = guilds.map((guild) => guild.id);
  const [totalCommands, activeUsers, totalCurrency] = await Promise.all([
    sumOf(acrossGuilds(store, "a person's servers").CommandUsage, 'count', ids),
    activeMembers(store, ids, now),
    sumOf(acrossGuilds(store, "a person's servers").UserCurrency, 'balance', ids),
  ]);
  return { totalMembers: guilds.reduce((sum, guild) => sum + guild.memberCount, 0), totalCommands, activeUsers, totalCurrency };
}

/** One guild's dashboard: live member count, usage totals, and 30 days of messages and joins. */
export async function serverOverview(store: Store, guild: GuildSummary, now = new Date()): Promise<Overview> {
  const days: string[] = [];
  for (let offset = ACTIVITY_DAYS - 1; offset >= 0; offset -= 1) days.push(utcDay(new Date(now.getTime() - offset * 86_400_000)));
  const [firstDay = ''] = days;
  const [stats, rows] = await Promise.all([
    serverStats(store, [guild], now),
    store.guild(guild.id).GuildDailyStats.findAll({ where: { day: { [Op.gte]: firstDay } } }),
  ]);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    memberCount: guild.memberCount,
    commandsUsed: stats.totalCommands,
    activeUsers: stats.activeUsers,
    economyBalance: stats.totalCurrency,
    activity: days.map((day) => ({ date: day, messages: byDay.get(day)?.messages ?? 0, joins: byDay.get(day)?.joins ?? 0 })),
  };
}
