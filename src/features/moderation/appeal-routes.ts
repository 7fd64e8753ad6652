// The routes of ban appeals. The banned member's two are account routes, not guild routes: they
// are no dashboard admin of the server (the bot shares no server with them any more, often), and
// the domain lets only the ban's own target see or appeal it. The moderators' three are guild
// routes beside the reports'.
import * as z from 'zod';
import { accountRoute, guildRoute, type RouteSpec } from '../../http/route';
import {
  AcceptAppealInput,
  AppealInput,
  AppealParams,
  AppealsQuery,
  DenyAppealInput,
  type Appeal,
  type AppealsPage,
  type MemberAppealView,
} from '../../shared/appeals';
import { rowId } from '../../shared/fields';
import { acceptAppeal, denyAppeal, listAppeals, memberAppealView, submitAppeal } from './appeals';
import { dashboardActor } from './standing';

const AppealIdParams = z.object({ id: rowId('must be an appeal id') });

/** Every appeal route. */
export const appealRoutes: RouteSpec[] = [
  accountRoute({
    method: 'get',
    path: '/appeals/:guildId/:userId',
    handler: ({ params, account, services }): Promise<MemberAppealView> => {
      const { guildId, userId } = AppealParams.parse(params);
      return memberAppealView(services, guildId, account.userId, userId);
    },
  }),
  accountRoute({
    method: 'post',
    path: '/appeals/:guildId/:userId',
    body: AppealInput,
    handler: ({ params, body, account, services }): Promise<Appeal> => {
      const { guildId, userId } = AppealParams.parse(params);
      return submitAppeal(services, guildId, { userId: account.userId, name: account.username }, userId, body.text);
    },
  }),
  guildRoute({
    method: 'get',
    path: '/moderation/appeals',
    query: AppealsQuery,
    example: { query: { status: 'open' } },
    handler: ({ query, guild, services }): Promise<AppealsPage> => listAppeals(services, guild.id, query),
  }),
  guildRoute({
    method: 'post',
    path: '/moderation/appeals/:id/accept',
    body: AcceptAppealInput,
    example: { body: { reason: 'Apologised and understood the rules' } },
    handler: ({ body, params, guild, account, services }): Promise<Appeal> =>
      acceptAppeal(services, guild.id, AppealIdParams.parse(params).id, body.reason, dashboardActor(account)),
  }),
  guildRoute({
    method: 'post',
    path: '/moderation/appeals/:id/deny',
    body: DenyAppealInput,
    example: { body: { reason: 'The ban stands: repeated spam after warnings' } },
    handler: ({ body, params, guild, account, services }): Promise<Appeal> =>
      denyAppeal(services, guild.id, AppealIdParams.parse(params).id, body.reason, dashboardActor(account)),
  }),
];
