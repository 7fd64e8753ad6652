// The member page's reads and writes: one member's record, a case's reason or duration changed,
// a warning pardoned. Keys nest under the moderation page's, so its refreshes reach them too.
import { queryOptions } from '@tanstack/react-query';
import { ModerationCaseSchema } from '../../../src/shared/moderation';
import { MemberRecordSchema, type EditCaseInput, type PardonInput } from '../../../src/shared/moderation-cases';
import { apiRequest } from '../../api/client';
import { guildApi, readGuild } from '../../api/guild';
import { moderationKeys } from './api';

/** The dashboard's address of a member's page. */
export const memberPagePath = (guildId: string, userId: string) => `/server/${guildId}/moderation/members/${userId}`;

/** One member's record: their cases, notes, active warnings and the ladder's next step. */
export const memberRecordQuery = (guildId: string, userId: string) =>
  queryOptions({
    queryKey: [...moderationKeys.all(guildId), 'member', userId] as const,
    queryFn: readGuild(guildId, `/moderation/members/${encodeURIComponent(userId)}`, MemberRecordSchema),
  });

/** PATCH /moderation/cases/:caseNumber: a new reason and/or duration; answers the case. */
export async function editCase(guildId: string, caseNumber: number, input: EditCaseInput) {
  return ModerationCaseSchema.parse(await apiRequest('PATCH', `${guildApi(guildId)}/moderation/cases/${caseNumber}`, input));
}

/** POST /moderation/cases/:caseNumber/pardon: answers the pardon's own case. */
export async function pardonCase(guildId: string, caseNumber: number, input: PardonInput) {
  return ModerationCaseSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/cases/${caseNumber}/pardon`, input));
}
