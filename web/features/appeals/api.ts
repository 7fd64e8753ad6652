// Ban appeals' reads and writes: the banned member's own appeal page (account routes, outside the
// server pages) and the moderators' list and decisions (guild routes, under the moderation keys,
// so a decision refreshes the log and the stat cards too).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  AppealSchema,
  AppealsPageSchema,
  MemberAppealViewSchema,
  type AcceptAppealInput,
  type AppealInput,
  type AppealStatus,
  type DenyAppealInput,
} from '../../../src/shared/appeals';
import { apiRequest } from '../../api/client';
import { guildApi, readGuild } from '../../api/guild';
import { moderationKeys } from '../moderation/api';

/** Appeals per page of the moderators' dialog. */
export const APPEAL_PAGE_SIZE = 10;

/** Which appeals to list: one status, or all. */
export type AppealFilter = AppealStatus | 'all';

/** The appeals' query keys. */
export const appealKeys = {
  list: (guildId: string, status: AppealFilter, page: number) => [...moderationKeys.all(guildId), 'appeals', status, page] as const,
  member: (guildId: string, userId: string) => ['appeal', guildId, userId] as const,
};

/** One page of appeals of a status (the moderators'). */
export const appealsQuery = (guildId: string, status: AppealFilter, page: number) =>
  queryOptions({
    queryKey: appealKeys.list(guildId, status, page),
    queryFn: readGuild(guildId, `/moderation/appeals?status=${status}&page=${page}&pageSize=${APPEAL_PAGE_SIZE}`, AppealsPageSchema),
    placeholderData: keepPreviousData,
  });

/** POST /moderation/appeals/:id/accept: lifts the ban. */
export async function acceptAppeal(guildId: string, id: number, input: AcceptAppealInput) {
  return AppealSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/appeals/${id}/accept`, input));
}

/** POST /moderation/appeals/:id/deny: the ban stays. */
export async function denyAppeal(guildId: string, id: number, input: DenyAppealInput) {
  return AppealSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/appeals/${id}/deny`, input));
}

const memberApi = (guildId: string, userId: string) => `/api/appeals/${encodeURIComponent(guildId)}/${encodeURIComponent(userId)}`;

/** The banned member's appeal page: their ban, their latest appeal and whether they may appeal now. */
export const memberAppealQuery = (guildId: string, userId: string) =>
  queryOptions({
    queryKey: appealKeys.member(guildId, userId),
    queryFn: async () => MemberAppealViewSchema.parse(await apiRequest('GET', memberApi(guildId, userId))),
    // A refusal (403, 404) is the page's answer, not a hiccup to retry.
    retry: false,
  });

/** POST /api/appeals/:guildId/:userId: the member's appeal. */
export async function submitAppeal(guildId: string, userId: string, input: AppealInput) {
  return AppealSchema.parse(await apiRequest('POST', memberApi(guildId, userId), input));
}
