// The dashboard's routes for cases as living records: a member's record, editing a case's reason or
// duration, and pardoning a warning. The same domain functions as /case and /note.
import { guildRoute, type RouteSpec } from '../../http/route';
import type { ModerationCase } from '../../shared/moderation';
import { CaseParams, EditCaseInput, MemberParams, PardonInput, type MemberRecord } from '../../shared/moderation-cases';
import { editCase } from './case-edits';
import { pardonWarning } from './case-pardons';
import { memberRecord } from './member-record';
import { dashboardActor } from './standing';

/** GET a member's record, PATCH a case, POST a pardon. */
export const caseRoutes: RouteSpec[] = [
  guildRoute({
    method: 'get',
    path: '/moderation/members/:userId',
    example: {},
    handler: ({ params, guild, services }): Promise<MemberRecord> => memberRecord(services, guild.id, MemberParams.parse(params).userId),
  }),
  guildRoute({
    method: 'patch',
    path: '/moderation/cases/:caseNumber',
    body: EditCaseInput,
    example: { body: { reason: 'Spam in #general (edited)' } },
    handler: ({ body, params, guild, account, services }): Promise<ModerationCase> =>
      editCase(services, guild.id, CaseParams.parse(params).caseNumber, body, dashboardActor(account)),
  }),
  guildRoute({
    method: 'post',
    path: '/moderation/cases/:caseNumber/pardon',
    body: PardonInput,
    example: { body: { reason: 'Apologised and has kept to the rules since' } },
    handler: ({ body, params, guild, account, services }): Promise<ModerationCase> =>
      pardonWarning(services, guild.id, CaseParams.parse(params).caseNumber, body.reason, dashboardActor(account)),
  }),
];
