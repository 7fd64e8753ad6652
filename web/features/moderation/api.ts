// The moderation page's reads and writes: the stat cards, the log (searched and filtered by the
// server), the reports, and running an action. Keys nest under the guild, so a guild-wide refresh
// reaches them too.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  ModerationCaseSchema,
  ModerationLogsPageSchema,
  ModerationStatsSchema,
  type LogFilter,
  type ModerationActionInput,
} from '../../../src/shared/moderation';
import { ReportSchema, ReportsPageSchema, type ReportStatus, type ResolveReportInput } from '../../../src/shared/reports';
import { ChannelToolResultSchema, ChannelToolStateSchema, type PurgeInput, type SlowmodeInput } from '../../../src/shared/channel-tools';
import { apiRequest } from '../../api/client';
import { guildApi, guildKeys, readGuild } from '../../api/guild';

/** Cases per page of the log. */
export const LOG_PAGE_SIZE = 20;
/** Reports per page of the reports dialog. */
export const REPORT_PAGE_SIZE = 10;

/** What the log is narrowed to. */
export interface LogSearch {
  q: string;
  action: LogFilter;
  page: number;
}

/** Which reports to list: one status, or all. */
export type ReportFilter = ReportStatus | 'all';

/** The page's query keys. */
export const moderationKeys = {
  all: (guildId: string) => [...guildKeys.all(guildId), 'moderation'] as const,
  stats: (guildId: string) => [...guildKeys.all(guildId), 'moderation', 'stats'] as const,
  logs: (guildId: string, search: LogSearch) => [...guildKeys.all(guildId), 'moderation', 'logs', search] as const,
  reports: (guildId: string, status: ReportFilter, page: number) => [...guildKeys.all(guildId), 'moderation', 'reports', status, page] as const,
};

/** The stat cards' counts and the open reports. */
export const moderationStatsQuery = (guildId: string) =>
  queryOptions({ queryKey: moderationKeys.stats(guildId), queryFn: readGuild(guildId, '/moderation/stats', ModerationStatsSchema) });

/** One page of the log; the previous page stays on screen while the next loads. */
export const moderationLogsQuery = (guildId: string, search: LogSearch) => {
  const params = new URLSearchParams({ action: search.action, page: String(search.page), pageSize: String(LOG_PAGE_SIZE) });
  if (search.q) params.set('q', search.q);
  return queryOptions({
    queryKey: moderationKeys.logs(guildId, search),
    queryFn: readGuild(guildId, `/moderation/logs?${params}`, ModerationLogsPageSchema),
    placeholderData: keepPreviousData,
  });
};

/** One page of reports of a status. */
export const reportsQuery = (guildId: string, status: ReportFilter, page: number) =>
  queryOptions({
    queryKey: moderationKeys.reports(guildId, status, page),
    queryFn: readGuild(guildId, `/moderation/reports?status=${status}&page=${page}&pageSize=${REPORT_PAGE_SIZE}`, ReportsPageSchema),
    placeholderData: keepPreviousData,
  });

/** POST /moderation: runs the action and answers its case. */
export async function runModerationAction(guildId: string, input: ModerationActionInput) {
  return ModerationCaseSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation`, input));
}

/** POST /moderation/reports/:id/resolve, optionally with an action on the reported member. */
export async function resolveReport(guildId: string, id: number, input: ResolveReportInput) {
  return ReportSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/reports/${id}/resolve`, input));
}

/** POST /moderation/reports/:id/dismiss. */
export async function dismissReport(guildId: string, id: number) {
  return ReportSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/reports/${id}/dismiss`));
}

/** One channel's slowmode and lock, for the Channel tools card. */
export const channelToolStateQuery = (guildId: string, channelId: string) =>
  queryOptions({
    queryKey: [...moderationKeys.all(guildId), 'channel', channelId] as const,
    queryFn: readGuild(guildId, `/moderation/channels/${channelId}`, ChannelToolStateSchema),
  });

/** The channel tools' writes. */
export type ChannelTool = 'purge' | 'slowmode' | 'lock' | 'unlock';

/** POST /moderation/channels/:channelId/<tool>: answers the sentence to show and the channel after it. */
export async function runChannelTool(guildId: string, channelId: string, tool: ChannelTool, body: PurgeInput | SlowmodeInput | Record<string, never> = {}) {
  return ChannelToolResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/channels/${channelId}/${tool}`, body));
}
