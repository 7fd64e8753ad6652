// One member's moderation record for the dashboard's member page: who they are (when the server or
// Discord still knows them), every case about them newest first (pardoned warnings marked, notes
// included), their active warnings and what the warning ladder would do at their next warning.
import type { Services } from '../../core/services';
import { ladderOutlook, MEMBER_CASES_LIMIT, type MemberRecord } from '../../shared/moderation-cases';
import { activeWarnings, cases, viewCase } from './cases';
import { liveGuild } from './standing';

/** The record of user `userId` in the guild (a user with no cases has an empty one). */
export async function memberRecord(services: Services, guildId: string, userId: string): Promise<MemberRecord> {
  const guild = liveGuild(services, guildId);
  const settings = await services.settings.get(guildId);
  const [rows, totalCases, active] = await Promise.all([
    cases(services, guildId).findAll({ where: { targetId: userId }, order: [['caseNumber', 'DESC']], limit: MEMBER_CASES_LIMIT }),
    cases(services, guildId).count({ where: { targetId: userId } }),
    activeWarnings(services, guildId, userId, settings),
  ]);
  const member = guild.members.cache.get(userId) ?? (await guild.members.fetch(userId).catch(() => null));
  const user = member?.user ?? (await services.gateway.client?.users.fetch(userId).catch(() => null)) ?? null;
  const known = rows.find((row) => row.targetName)?.targetName ?? null;
  return {
    userId,
    name: member?.displayName ?? user?.globalName ?? user?.username ?? known,
    avatarUrl: user ? user.displayAvatarURL({ size: 128 }) : null,
    inServer: member !== null,
    cases: rows.map((row) => viewCase(services, row)),
    totalCases,
    activeWarnings: active.length,
    ladder: ladderOutlook(settings.escalation, active.length),
  };
}
