import * as z from 'zod';
import type { Feature } from '../../core/feature';
import { guildRoute } from '../../http/route';
import { rowId } from '../../shared/fields';
import type { RoleGrant, RoleGrantList } from '../../shared/role-grants';
import { retryGrantNow } from './retry';
import { diagnoseRoleGrants, dismissRoleGrant, listRoleGrants, viewRoleGrant } from './service';
import { roleGrantState } from './state';

const GrantParams = z.object({ id: rowId('must be a role grant id') });

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
