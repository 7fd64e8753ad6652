import * as z from 'zod';
import type { Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { guildRoute } from '../../http/route';
import { rowId } from '../../shared/fields';
import type { RoleGrant, RoleGrantList } from '../../shared/role-grants';
import { retryGrantNow } from './retry';
import { diagnoseRoleGrants, dismissRoleGrant, listRoleGrants, viewRoleGrant } from './service';
import { roleGrantState } from './state';

const GrantParams = z.object({ id: rowId('must be a role grant id') });

/**
 * For the access matrix: a failed grant of the Member role to a member of the demo guild
 * without an open one (the matrix asks for a fresh grant on every call), stored as the retrier
 * leaves one.
 */
async function exampleGrant(services: Services, guildId: string): Promise<Record<string, string>> {
  const role = services.gateway.roles(guildId).find((candidate) => candidate.name === 'Member');
  const open = await services.store.guild(guildId).RoleGrantRetry.findAll({
    where: { roleId: role?.id ?? '0', status: ['pending', 'failed'] },
    attributes: ['userId'],
  });
  const taken = new Set(open.map((grant) => grant.userId));
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = guild?.members.cache.find((candidate) => !candidate.user.bot && candidate.id !== guild.ownerId && !taken.has(candidate.id));
  const now = services.clock.now();
  // Once every cached member has one, a member who left (the retry drops it): a snowflake of now, numbered.
  const userId = member?.id ?? String(((BigInt(now.getTime()) - 1_420_070_400_000n) << 22n) + BigInt(taken.size));
  const grant = await services.store.guild(guildId).RoleGrantRetry.create({
    userId,
    memberName: member?.displayName ?? null,
    roleId: role?.id ?? '0',
    roleName: role?.name ?? null,
    action: 'add',
    source: 'memberRole',
    sourceId: null,
    reason: 'Auto-assign member role',
    attempts: 6,
    nextAttemptAt: null,
    lastError: 'Discord did not answer (503 Service Unavailable). The bot tried 6 times and gave up.',
    status: 'failed',
    claimedUntil: null,
    createdAt: now,
    updatedAt: now,
  });
  return { id: String(grant.id) };
}

/**
 * Role grants: what the bot could not give or take when asked (Discord did not answer: retried on
 * a schedule; Discord refused: kept as failed), listed on the dashboard with Retry now and
 * Dismiss, and failed ones shown among the diagnostics.
 */
export const roleGrantsFeature: Feature = {
  name: 'role-grants',
  diagnose: diagnoseRoleGrants,
  state: roleGrantState,
  start: (services) => roleGrantState.of(services).retrier.start(),
  stop: (services) => roleGrantState.of(services).retrier.stop(),
  routes: [
    guildRoute({
      method: 'get',
      path: '/role-grants',
      example: {},
      handler: ({ guild, services }): Promise<RoleGrantList> => listRoleGrants(services, guild.id),
    }),
    guildRoute({
      method: 'post',
      path: '/role-grants/:id/retry',
      example: { setup: (services, guildId) => exampleGrant(services, guildId) },
      handler: async ({ params, guild, services }): Promise<RoleGrant> =>
        viewRoleGrant(services, await retryGrantNow(services, guild.id, GrantParams.parse(params).id)),
    }),
    guildRoute({
      method: 'delete',
      path: '/role-grants/:id',
      example: { setup: (services, guildId) => exampleGrant(services, guildId) },
      handler: async ({ params, guild, services }) => {
        await dismissRoleGrant(services, guild.id, GrantParams.parse(params).id);
      },
    }),
  ],
};
