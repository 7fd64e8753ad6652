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
      body: { subjectType: 'role', subjectId: ':roleId', level: 'view' },
    },
    handler: ({ body, guild, account, services }) => grantAccess(services, guild, body, { ...actorOf(account), userId: account.userId }),
  }),

  guildRoute({
    method: 'delete',
    path: '/access/:grantId',
    access: 'admin',
    example: {},
    handler: async ({ params, guild, account, services }) => {
      const { grantId } = GrantParams.parse(params);
      await revokeAccess(services, guild, grantId, actorOf(account));
      return undefined;
    },
  }),
];
