// What the dashboard reads and does with the grants that did not go through: the list (waiting and
// failed, with what each was for), Dismiss, the diagnostics that make failed grants noticed, and
// the pruning of settled rows.
import { Op } from 'sequelize';
import { Conflict, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { RoleGrantRetry } from '../../db/models/role-grant';
import type { Diagnostic, DiagnosticFeature } from '../../shared/diagnostics';
import {
  ROLE_GRANT_LIST_LIMIT,
  ROLE_GRANT_MESSAGES,
  ROLE_GRANT_SOURCE_LABELS,
  type RoleGrant,
  type RoleGrantList,
  type RoleGrantSource,
} from '../../shared/role-grants';
import { counted } from '../../shared/words';
import { acrossGuilds } from '../../db/cross-guild';

/** Settled grants (done, dropped) are kept this long, then pruned. */
export const SETTLED_GRANTS_KEPT_MS = 7 * 24 * 60 * 60_000;

/** Where each source's failed grants show among the diagnostics (and on which page's tile). */
const DIAGNOSTIC_FEATURE_OF: Record<RoleGrantSource, DiagnosticFeature> = {
  reactionRole: 'reactionRoles',
  levelReward: 'leveling',
  verification: 'verification',
  memberRole: 'autoRole',
  roleMenu: 'reactionRoles',
};

/** What each grant was for, in words, reading the entries and rewards of the page at once. */
async function purposes(services: Services, guildId: string, grants: readonly RoleGrantRetry[]): Promise<Map<number, string>> {
  const ids = (source: RoleGrantSource) => [
    ...new Set(grants.flatMap((grant) => (grant.source === source && grant.sourceId !== null ? [grant.sourceId] : []))),
  ];
  const [entries, rewards] = await Promise.all([
    services.store.guild(guildId).ReactionRole.findAll({ where: { id: { [Op.in]: ids('reactionRole') } } }),
    services.store.guild(guildId).LevelReward.findAll({ where: { id: { [Op.in]: ids('levelReward') } } }),
  ]);
  const words = new Map<number, string>();
  for (const grant of grants) {
    const label = ROLE_GRANT_SOURCE_LABELS[grant.source];
    if (grant.source === 'reactionRole') {
      const entry = entries.find((candidate) => candidate.id === grant.sourceId);
      const channel = entry ? services.gateway.channel(guildId, entry.channelId)?.name : undefined;
      words.set(grant.id, entry ? `${label} ${entry.emoji}${channel ? ` in #${channel}` : ''}` : `${label} (since deleted)`);
    } else if (grant.source === 'levelReward') {
      const reward = rewards.find((candidate) => candidate.id === grant.sourceId);
      words.set(grant.id, reward ? `Level ${reward.level} reward` : `${label} (since deleted)`);
    } else {
      words.set(grant.id, label);
    }
  }
  return words;
}

/** A grant as the dashboard shows it. */
function presentGrant(services: Services, grant: RoleGrantRetry, purpose: string): RoleGrant {
  return {
    id: grant.id,
    userId: grant.userId,
    memberName: grant.memberName,
    roleId: grant.roleId,
    roleName: services.gateway.role(grant.guildId, grant.roleId)?.name ?? grant.roleName,
    action: grant.action,
    source: grant.source,
    purpose,
    status: grant.status,
    attempts: grant.attempts,
    nextAttemptAt: grant.status === 'pending' ? (grant.nextAttemptAt?.toISOString() ?? null) : null,
    lastError: grant.lastError,
    createdAt: grant.createdAt.toISOString(),
    updatedAt: grant.updatedAt.toISOString(),
  };
}

/** One grant as the dashboard shows it (after Retry now). */
export async function viewRoleGrant(services: Services, grant: RoleGrantRetry): Promise<RoleGrant> {
  const words = await purposes(services, grant.guildId, [grant]);
  return presentGrant(services, grant, words.get(grant.id) ?? ROLE_GRANT_SOURCE_LABELS[grant.source]);
}

/** GET /role-grants: the waiting and failed grants, newest first (up to ROLE_GRANT_LIST_LIMIT), and how many of each. */
export async function listRoleGrants(services: Services, guildId: string): Promise<RoleGrantList> {
  const model = services.store.guild(guildId).RoleGrantRetry;
  const [rows, pending, failed] = await Promise.all([
    model.findAll({ where: { status: { [Op.in]: ['pending', 'failed'] } }, order: [['id', 'DESC']], limit: ROLE_GRANT_LIST_LIMIT }),
    model.count({ where: { status: 'pending' } }),
    model.count({ where: { status: 'failed' } }),
  ]);
  const words = await purposes(services, guildId, rows);
  return { items: rows.map((row) => presentGrant(services, row, words.get(row.id) ?? ROLE_GRANT_SOURCE_LABELS[row.source])), pending, failed };
}

/** DELETE /role-grants/:id: an admin dismisses a failed grant, or stops a waiting one; it is kept as dropped. */
export async function dismissRoleGrant(services: Services, guildId: string, id: number): Promise<void> {
  const grant = await services.store.guild(guildId).RoleGrantRetry.findOne({ where: { id } });
  if (!grant) throw new NotFound(ROLE_GRANT_MESSAGES.notFound);
  const count = await services.store
    .guild(guildId)
    .RoleGrantRetry.update(
      { status: 'dropped', lastError: ROLE_GRANT_MESSAGES.dismissed, nextAttemptAt: null, claimedUntil: null, updatedAt: services.clock.now() },
      { where: { id, status: { [Op.in]: ['pending', 'failed'] } } },
    );
  if (count !== 1) throw new Conflict(ROLE_GRANT_MESSAGES.settled);
}

/**
 * Failed grants as diagnostics, one per source and role (with the latest reason), under the
 * feature that asked for them, so the page of that feature and its dashboard tile show them.
 */
export async function diagnoseRoleGrants(services: Services, guildId: string): Promise<Diagnostic[]> {
  const failed = await services.store.guild(guildId).RoleGrantRetry.findAll({ where: { status: 'failed' }, order: [['id', 'DESC']], limit: 500 });
  const groups = new Map<string, RoleGrantRetry[]>();
  for (const grant of failed) {
    const key = `${grant.source}:${grant.action}:${grant.roleId}`;
    groups.set(key, [...(groups.get(key) ?? []), grant]);
  }
  return [...groups].map(([key, grants]) => {
    const [latest] = grants as [RoleGrantRetry, ...RoleGrantRetry[]];
    const role = `@${services.gateway.role(guildId, latest.roleId)?.name ?? latest.roleName ?? latest.roleId}`;
    const members = counted(grants.length, 'member');
    const what = latest.action === 'add' ? `${role} could not be given to ${members}` : `${role} could not be taken from ${members}`;
    return {
      feature: DIAGNOSTIC_FEATURE_OF[latest.source],
      severity: 'error' as const,
      problem: `${ROLE_GRANT_SOURCE_LABELS[latest.source]}: ${what}. ${latest.lastError ?? ''}`.trim(),
      fix: 'Fix the cause, then use Retry now in Role grants on the server dashboard (or Dismiss).',
      subject: `roleGrants:${key}`,
    };
  });
}

/** Deletes grants settled (done or dropped) longer than SETTLED_GRANTS_KEPT_MS ago; returns how many. */
export async function pruneSettledGrants(services: Services): Promise<number> {
  const before = new Date(services.clock.ms() - SETTLED_GRANTS_KEPT_MS);
  return acrossGuilds(services.store, 'due role grants').RoleGrantRetry.destroy({
    where: { status: { [Op.in]: ['done', 'dropped'] }, updatedAt: { [Op.lt]: before } },
  });
}
