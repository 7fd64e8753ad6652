import * as z from 'zod';
import { rowId } from '../../shared/fields';
import type { Feature } from '../../core/feature';
import { guildRoute } from '../../http/route';
import {
  ModerationActionInput,
  ModerationLogsQuery,
  ReportsQuery,
  ResolveReportInput,
  type ModerationCase,
  type ModerationLogsPage,
  type ModerationStats,
  type Report,
  type ReportsPage,
} from '../../shared/moderation';
import { ChannelParams, PurgeInput, SlowmodeInput, type ChannelToolResult, type ChannelToolState } from '../../shared/channel-tools';
import { channelCommands } from './channel-commands';
import { channelToolState, lockChannel, purgeChannel, setSlowmode, unlockChannel } from './channel-tools';
import { moderationCommands, reportMessage } from './commands';
import { enforceAutomod } from './enforce';
import { recordNativeActions } from './native';
import { dismissReport, listReports, resolveReport } from './reports';
import { moderate } from './actions';
import { listCases, moderationStats } from './case-log';
import { moderationState } from './state';

const ReportParams = z.object({ id: rowId('must be a report id') });
/** The dashboard's moderator. */
const dashboardActor = (account: { userId: string; username: string }) => ({ userId: account.userId, name: account.username, source: 'dashboard' as const });
const channelIdOf = (params: Record<string, string>) => ChannelParams.parse(params).channelId;

/** Moderation: actions as numbered cases, native actions recorded, temporary bans, the warning ladder, reports, auto moderation. */
export const moderationFeature: Feature = {
  name: 'moderation',
  commands: [...moderationCommands, ...channelCommands],
  messageCommands: [reportMessage],
  listeners: [recordNativeActions, enforceAutomod],
  state: moderationState,
  start: (services) => moderationState.of(services).tempbans.start(),
  stop: (services) => moderationState.of(services).tempbans.stop(),
  routes: [
    guildRoute({
      method: 'get',
      path: '/moderation/stats',
      example: {},
      handler: ({ guild, services }): Promise<ModerationStats> => moderationStats(services, guild.id),
    }),
    guildRoute({
      method: 'get',
      path: '/moderation/logs',
      query: ModerationLogsQuery,
      example: { query: { q: 'spam', action: 'all', page: '1' } },
      handler: ({ query, guild, services }): Promise<ModerationLogsPage> => listCases(services, guild.id, query),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation',
      body: ModerationActionInput,
      example: {
        body: { action: 'note', targetId: ':memberId', reason: 'Asked to keep #general on topic' },
      },
      handler: ({ body, guild, account, services }): Promise<ModerationCase> =>
        moderate(services, guild.id, body, { userId: account.userId, name: account.username, source: 'dashboard' }),
    }),
    guildRoute({
      method: 'get',
      path: '/moderation/channels/:channelId',
      example: {},
      cache: false,
      handler: ({ params, guild, services }): ChannelToolState => channelToolState(services, guild.id, channelIdOf(params)),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/channels/:channelId/purge',
      body: PurgeInput,
      example: { body: { count: 2, contains: 'spam' } },
      handler: ({ body, params, guild, account, services }): Promise<ChannelToolResult> =>
        purgeChannel(services, guild.id, channelIdOf(params), body, dashboardActor(account)),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/channels/:channelId/slowmode',
      body: SlowmodeInput,
      example: { body: { seconds: 30 } },
      handler: ({ body, params, guild, account, services }): Promise<ChannelToolResult> =>
        setSlowmode(services, guild.id, channelIdOf(params), body.seconds, dashboardActor(account)),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/channels/:channelId/lock',
      example: {},
      handler: ({ params, guild, account, services }): Promise<ChannelToolResult> =>
        lockChannel(services, guild.id, channelIdOf(params), dashboardActor(account)),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/channels/:channelId/unlock',
      example: {},
      handler: ({ params, guild, account, services }): Promise<ChannelToolResult> =>
        unlockChannel(services, guild.id, channelIdOf(params), dashboardActor(account)),
    }),
    guildRoute({
      method: 'get',
      path: '/moderation/reports',
      query: ReportsQuery,
      example: { query: { status: 'open' } },
      handler: ({ query, guild, services }): Promise<ReportsPage> => listReports(services, guild.id, query),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/reports/:id/resolve',
      body: ResolveReportInput,
      example: { body: {} },
      handler: ({ body, params, guild, account, services }): Promise<Report> =>
        resolveReport(services, guild.id, ReportParams.parse(params).id, body, { userId: account.userId, name: account.username, source: 'dashboard' }),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/reports/:id/dismiss',
      example: {},
      handler: ({ params, guild, account, services }): Promise<Report> =>
        dismissReport(services, guild.id, ReportParams.parse(params).id, { userId: account.userId, name: account.username, source: 'dashboard' }),
    }),
  ],
};
