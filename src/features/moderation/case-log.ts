// The moderation log as the dashboard reads it: a page of cases, filtered and searched, and the
// counts on its cards.
import { Op, type WhereOptions } from 'sequelize';
import type { Services } from '../../core/services';
import type { ModerationLogsPage, ModerationStats } from '../../shared/moderation';
import { cases, viewCase } from './cases';

/** Escapes LIKE's wildcards in text searched for. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Moderation Logs: newest first, filtered by action and searched (reason, target id or name, moderator name, or #case). */
export async function listCases(
  services: Services,
  guildId: string,
  query: { q: string; action: string; page: number; pageSize: number },
): Promise<ModerationLogsPage> {
  const where: Record<string | symbol, unknown> = {};
  if (query.action !== 'all') where.action = query.action;
  const q = query.q.trim();
  if (q) {
    const like = services.store.dialect === 'postgres' ? Op.iLike : Op.like;
    const pattern = `%${likeText(q)}%`;
    const or: WhereOptions[] = [
      { reason: { [like]: pattern } },
      { targetId: { [Op.like]: `${likeText(q)}%` } },
      { targetName: { [like]: pattern } },
      { moderatorName: { [like]: pattern } },
    ];
    const caseNumber = /^#?(\d{1,9})$/.exec(q);
    if (caseNumber) or.push({ caseNumber: Number(caseNumber[1]) });
    where[Op.or] = or;
  }
  const [rows, total] = await Promise.all([
    cases(services, guildId).findAll({
      where: where as WhereOptions,
      order: [['caseNumber', 'DESC']],
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    cases(services, guildId).count({ where: where as WhereOptions }),
  ]);
  return { entries: rows.map((row) => viewCase(services, row)), page: query.page, pageSize: query.pageSize, total };
}

/** The four cards (and kicks, open reports), counted over the whole log. */
export async function moderationStats(services: Services, guildId: string): Promise<ModerationStats> {
  const data = services.store.guild(guildId);
  const counted = await data.ModerationLog.countBy('action');
  const of = (action: string) => counted.get(action) ?? 0;
  const openReports = await data.ModerationReport.count({ where: { status: 'open' } });
  return {
    totalActions: [...counted.values()].reduce((sum, count) => sum + count, 0),
    bans: of('ban'),
    warnings: of('warn'),
    timeouts: of('timeout'),
    kicks: of('kick'),
    openReports,
  };
}
