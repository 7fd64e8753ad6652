import * as z from 'zod';
import { rowId } from '../../shared/fields';
import { guildRoute, type RouteSpec } from '../../http/route';
import { GrantInput } from '../../shared/settings';
import { actorOf } from '../../core/actor';
import { grantAccess, listGrants, revokeAccess } from './service';

const GrantParams = z.object({ grantId: rowId('must be a grant id') });

/** Delegated dashboard access: listed to anyone who may open the dashboard, changed by the owner or an Administrator. */
export const accessRoutes: RouteSpec[] = [
  guildRoute({
    method: 'get',
    path: '/access',
    example: {},
    handler: ({ guild, services }) => listGrants(services, guild.id),
  }),

  guildRoute({
    method: 'post',
    path: '/access',
    access: 'admin',
    body: GrantInput,
    example: {
      setup: async (services, guildId) => ({ roleId: services.gateway.roles(guildId).find((role) => !role.isEveryone && !role.managed)?.id ?? '' }),
      body: { subjectType: 'role', subjectId: ':roleId', level: 'view' },
    },
    handler: ({ body, guild, account, services }) => grantAccess(services, guild, body, { ...actorOf(account), userId: account.userId }),
  }),

  guildRoute({
    method: 'delete',
    path: '/access/:grantId',
    access: 'admin',
    example: {
      setup: async (services, guildId) => {
        const role = services.gateway.roles(guildId).find((candidate) => !candidate.isEveryone && !candidate.managed);
        const grant = await services.grants.grant(guildId, { subjectType: 'role', subjectId: role?.id ?? '0', level: 'view', expiresAt: null, createdBy: '0' });
        return { grantId: String(grant.id) };
      },
    },
    handler: async ({ params, guild, account, services }) => {
      const { grantId } = GrantParams.parse(params);
      await revokeAccess(services, guild, grantId, actorOf(account));
      return undefined;
    },
  }),
];
