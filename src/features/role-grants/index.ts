import * as z from 'zod';
import type { Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { PeriodicTask } from '../../core/periodic';
import { guildRoute } from '../../http/route';
import { rowId } from '../../shared/fields';
import type { RoleGrant, RoleGrantList } from '../../shared/role-grants';
import { retryDueGrants, retryGrantNow, RETRY_TICK_MS } from './retry';
import { diagnoseRoleGrants, dismissRoleGrant, listRoleGrants, pruneSettledGrants, viewRoleGrant } from './service';

const GrantParams = z.object({ id: rowId('must be a role grant id') });

/** How often settled grants are pruned. */
const PRUNE_INTERVAL_MS = 60 * 60_000;

/** One retrier per running product (tests run several in one process). */
const retriers = new WeakMap<Services, PeriodicTask>();

/** The retrier's pass: due grants, and now and then the pruning of settled ones. */
function retrierWork(services: Services): () => Promise<void> {
  let prunedAt = -Infinity;
  return async () => {
    await retryDueGrants(services);
    if (services.clock.ms() - prunedAt < PRUNE_INTERVAL_MS) return;
    prunedAt = services.clock.ms();
    await pruneSettledGrants(services);
  };
}

/**
 * Role grants: what the bot could not give or take when asked (Discord did not answer: retried on
 * a schedule; Discord refused: kept as failed), listed on the dashboard with Retry now and
 * Dismiss, and failed ones shown among the diagnostics.
 */
export const roleGrantsFeature: Feature = {
  name: 'role-grants',
  diagnose: diagnoseRoleGrants,
  start(services) {
    const task = new PeriodicTask('role grant retries', retrierWork(services), services.logger, RETRY_TICK_MS);
    retriers.set(services, task);
    task.start();
  },
  stop: (services) => retriers.get(services)?.stop(),
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
      example: {},
      handler: async ({ params, guild, services }): Promise<RoleGrant> =>
        viewRoleGrant(services, await retryGrantNow(services, guild.id, GrantParams.parse(params).id)),
    }),
    guildRoute({
      method: 'delete',
      path: '/role-grants/:id',
      example: {},
      handler: async ({ params, guild, services }) => {
        await dismissRoleGrant(services, guild.id, GrantParams.parse(params).id);
      },
    }),
  ],
};
