// Pardoning a warning (issue 24, point 1): the warning stays in the log but stops counting toward
// the warning ladder, and the pardon is itself a case (action 'pardon', by whom and why, its
// details naming the warning's case), posted to the log channel like any other.
import { Conflict, InvalidInput } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationCase } from '../../shared/moderation';
import { findCase, requireModeratorPermission } from './case-edits';
import { announceCase, cases, recordCase, viewCase } from './cases';
import { checkStanding, liveGuild, memberOf, type Actor } from './standing';

/** Pardons warning #caseNumber as `actor`, for `reason`; answers the pardon's own case. */
export async function pardonWarning(services: Services, guildId: string, caseNumber: number, reason: string, actor: Actor): Promise<ModerationCase> {
  const guild = liveGuild(services, guildId);
  const warning = await findCase(services, guildId, caseNumber);
  if (warning.action !== 'warn')
    throw InvalidInput.field('caseNumber', 'is not a warning', `Case #${caseNumber} is not a warning: only warnings can be pardoned.`);
  if (warning.pardonedAt) throw new Conflict(`Warning #${caseNumber} was pardoned already (case #${warning.pardonCaseNumber ?? '?'}).`);
  await requireModeratorPermission(guild, actor, 'warn', 'pardon a warning');
  // Who may warn a member may pardon them: not themselves, not someone at or above their rank.
  const target = await memberOf(guild, warning.targetId);
  await checkStanding(guild, actor, 'warn', target);

  const pardon = await recordCase(services, guildId, {
    action: 'pardon',
    targetId: warning.targetId,
    targetName: target?.displayName ?? warning.targetName,
    moderatorId: actor.userId,
    moderatorName: actor.name,
    reason,
    source: actor.source,
    details: { caseNumber },
  });
  if (!pardon) throw new Error('a case without an audit entry was taken for a duplicate');
  // Only a warning not pardoned meanwhile is marked (two moderators at once: the first pardon counts).
  const marked = await cases(services, guildId).update(
    { pardonedAt: services.clock.now(), pardonCaseNumber: pardon.caseNumber },
    { where: { id: warning.id, pardonedAt: null } },
  );
  if (marked === 0) {
    await cases(services, guildId).destroy({ where: { id: pardon.id } });
    throw new Conflict(`Warning #${caseNumber} was pardoned already.`);
  }
  await announceCase(services, pardon);
  return viewCase(services, pardon);
}
