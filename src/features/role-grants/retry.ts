// The retrier: grants Discord did not answer are tried again when due (schedule.ts), each by one
// process only. A due grant is claimed with a row lease (one conditional update, as temporary bans
// are), so two processes on one PostgreSQL never both try it, and a process that dies mid-try
// leaves it to the next after the lease runs out. Each try first checks the grant is still wanted:
// the member is still in the server, the role still exists, and the rule that asked still says so.
import type { Guild } from 'discord.js';
import { Op } from 'sequelize';
import { Conflict, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { RoleGrantRetry } from '../../db/models/role-grant';
import { ROLE_GRANT_MESSAGES, type RoleGrantSource, type RoleGrantStatus } from '../../shared/role-grants';
import { counted } from '../../shared/words';
import { recordReactionRoleEvent } from '../reaction-roles/public';
import { callDiscord, sendRoleChange, type GrantTrouble } from './grants';
import { nextAttemptAt } from './schedule';
import { whyUnwanted } from './wanted';
import { acrossGuilds } from '../../db/cross-guild';

/** How long a process holds a grant it is trying. */
export const GRANT_CLAIM_MS = 60_000;

/** How often due grants are looked for (real time; what is due asks the clock). */
export const RETRY_TICK_MS = 1000;

/** The most grants one pass tries. */
const RETRY_BATCH = 20;

/** The log channel's title when a grant is given up, by source (a reaction role's failure is counted on its page instead). */
const FAILED_TITLES: Record<Exclude<RoleGrantSource, 'reactionRole'>, string> = {
  levelReward: 'Level reward failed',
  verification: 'Verification failed',
  memberRole: 'Auto-assign failed',
  roleMenu: 'Role menu failed',
};

/** Neither claimed nor held past its lease. */
const unclaimed = (now: Date) => ({ [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: now } }] });

/** What the source does once its grant is settled: a reaction role counts it; the others tell the log channel of a failure. */
async function afterSettled(services: Services, grant: RoleGrantRetry, status: RoleGrantStatus, lastError: string | null): Promise<void> {
  const where = { guildId: grant.guildId, grantId: grant.id, userId: grant.userId, roleId: grant.roleId, status };
  services.logger.info({ ...where, reason: lastError }, 'a queued role grant settled');
  if (status !== 'done' && status !== 'failed') return;
  if (grant.source === 'reactionRole') {
    const entry = grant.sourceId === null ? null : await services.store.guild(grant.guildId).ReactionRole.findOne({ where: { id: grant.sourceId } });
    if (entry) await recordReactionRoleEvent(services, entry, grant.userId, grant.action, status === 'failed' ? (lastError ?? 'Discord refused.') : null);
    return;
  }
  if (status !== 'failed') return;
  const role = grant.roleName ? `@${grant.roleName}` : 'A role';
  void services.notifier.notify(grant.guildId, {
    event: 'error',
    title: FAILED_TITLES[grant.source],
    description: `${role} for ${grant.memberName ?? grant.userId}: ${lastError ?? 'Discord refused.'}`,
    data: { userId: grant.userId, roleId: grant.roleId, grantId: grant.id },
  });
}

/** Ends a claimed grant's try as `status`; the source hears of it only if this process settled it. */
async function settle(
  services: Services,
  grant: RoleGrantRetry,
  status: Exclude<RoleGrantStatus, 'pending'>,
  lastError: string | null,
): Promise<RoleGrantStatus> {
  const count = await services.store.guild(grant.guildId).RoleGrantRetry.update(
    {
      status,
      attempts: grant.attempts + 1,
      lastError: lastError?.slice(0, 500) ?? grant.lastError,
      nextAttemptAt: null,
      claimedUntil: null,
      updatedAt: services.clock.now(),
    },
    { where: { id: grant.id, status: 'pending' } },
  );
  if (count === 1) await afterSettled(services, grant, status, lastError ?? grant.lastError);
  return status;
}

/** After a try that did not go through: dropped, failed, or (Discord did not answer) the next try scheduled, or given up. */
async function afterTrouble(services: Services, grant: RoleGrantRetry, trouble: GrantTrouble): Promise<RoleGrantStatus> {
  if (trouble.kind === 'gone') return settle(services, grant, 'dropped', trouble.message);
  if (trouble.kind === 'refused') return settle(services, grant, 'failed', trouble.error.message);
  const attempts = grant.attempts + 1;
  const now = services.clock.now();
  const next = nextAttemptAt(attempts, grant.createdAt, now);
  if (!next) return settle(services, grant, 'failed', `${trouble.message} The bot tried ${counted(attempts, 'time')} and gave up.`);
  await services.store
    .guild(grant.guildId)
    .RoleGrantRetry.update(
      { attempts, nextAttemptAt: next, lastError: trouble.message, claimedUntil: null, updatedAt: now },
      { where: { id: grant.id, status: 'pending' } },
    );
  return 'pending';
}

/** One try of a claimed grant: the member (fresh from Discord), the role, the rule, then the change. */
async function attempt(services: Services, guild: Guild, grant: RoleGrantRetry): Promise<RoleGrantStatus> {
  const botName = guild.members.me?.displayName ?? 'The bot';
  const fetched = await callDiscord(() => guild.members.fetch({ user: grant.userId, force: true }), botName);
  if (!fetched.ok) return afterTrouble(services, grant, fetched.trouble);
  const member = fetched.value;
  if (!guild.roles.cache.has(grant.roleId)) return settle(services, grant, 'dropped', 'The role was deleted in Discord.');
  const unwanted = await whyUnwanted(services, guild, member, grant);
  if (!unwanted.ok) return afterTrouble(services, grant, unwanted.trouble);
  if (unwanted.value) return settle(services, grant, 'dropped', unwanted.value);
  const sent = await sendRoleChange(member, grant.roleId, grant.action, grant.reason);
  if (!sent.ok) return afterTrouble(services, grant, sent.trouble);
  return settle(services, grant, 'done', null);
}

/** Tries a grant this process claimed; a bug lets go of the claim at once (the next pass tries again) and is thrown. */
async function attemptClaimed(services: Services, guild: Guild, grant: RoleGrantRetry): Promise<RoleGrantStatus> {
  try {
    return await attempt(services, guild, grant);
  } catch (error) {
    await services.store
      .guild(grant.guildId)
      .RoleGrantRetry.update({ claimedUntil: null }, { where: { id: grant.id } })
      .catch(() => undefined);
    throw error;
  }
}

/** Claims a due grant for this process: one conditional update, so one process wins. */
async function claim(services: Services, grant: RoleGrantRetry): Promise<boolean> {
  const now = services.clock.now();
  const count = await services.store
    .guild(grant.guildId)
    .RoleGrantRetry.update(
      { claimedUntil: new Date(now.getTime() + GRANT_CLAIM_MS) },
      { where: { id: grant.id, status: 'pending', nextAttemptAt: { [Op.lte]: now }, ...unclaimed(now) } },
    );
  return count === 1;
}

/**
 * Tries every due grant of the guilds this process holds (a guild held by another process is left
 * to it), oldest due first, a batch per pass; returns how many it tried.
 */
export async function retryDueGrants(services: Services): Promise<number> {
  const client = services.gateway.client;
  if (!client) return 0;
  const now = services.clock.now();
  const due = await acrossGuilds(services.store, 'due role grants').RoleGrantRetry.findAll({
    where: { status: 'pending', nextAttemptAt: { [Op.lte]: now }, ...unclaimed(now) },
    order: [['nextAttemptAt', 'ASC']],
    limit: RETRY_BATCH,
  });
  let tried = 0;
  for (const grant of due) {
    const guild = client.guilds.cache.get(grant.guildId);
    if (!guild || !(await claim(services, grant))) continue;
    // Read again once claimed: another process may have tried it between the read and the claim.
    await grant.reload();
    await attemptClaimed(services, guild, grant);
    tried += 1;
  }
  return tried;
}

/**
 * Retry now (an admin, from the dashboard): a waiting or failed grant is tried at once, its
 * schedule started over. No new Discord power is handed out: the grant is what a rule already
 * configured asks for, and it is re-checked against that rule. Answers the grant as it is after.
 */
export async function retryGrantNow(services: Services, guildId: string, id: number): Promise<RoleGrantRetry> {
  const grant = await services.store.guild(guildId).RoleGrantRetry.findOne({ where: { id } });
  if (!grant) throw new NotFound(ROLE_GRANT_MESSAGES.notFound);
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  if (!guild) throw new NotFound('The bot is not in that server.');
  const now = services.clock.now();
  const claimed = await services.store
    .guild(guildId)
    .RoleGrantRetry.update(
      { status: 'pending', attempts: 0, createdAt: now, nextAttemptAt: now, claimedUntil: new Date(now.getTime() + GRANT_CLAIM_MS), updatedAt: now },
      { where: { id, status: { [Op.in]: ['pending', 'failed'] }, ...unclaimed(now) } },
    );
  if (claimed !== 1) {
    await grant.reload();
    throw new Conflict(grant.status === 'pending' || grant.status === 'failed' ? ROLE_GRANT_MESSAGES.busy : ROLE_GRANT_MESSAGES.settled);
  }
  await grant.reload();
  await attemptClaimed(services, guild, grant);
  return grant.reload();
}
