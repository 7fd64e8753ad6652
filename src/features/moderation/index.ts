import * as z from 'zod';
import { rowId } from '../../shared/fields';
import type { Feature } from '../../core/feature';
import { guildRoute } from '../../http/route';
import { ModerationActionInput, ModerationLogsQuery, type ModerationCase, type ModerationLogsPage, type ModerationStats } from '../../shared/moderation';
import { ReportsQuery, ResolveReportInput, type Report, type ReportsPage } from '../../shared/reports';
import { ChannelParams, PurgeInput, SlowmodeInput, type ChannelToolResult, type ChannelToolState } from '../../shared/channel-tools';
import { automodTryCommand, automodTryRoutes } from './automod-try-routes';
import { channelCommands } from './channel-commands';
import { channelToolState, lockChannel, purgeChannel, setSlowmode, unlockChannel } from './channel-tools';
import { moderationCommands, reportMessage } from './commands';
import { enforceAutomod } from './enforce';
import { reapplyTimeoutsOnJoin } from './timeout-changes';
import { recordNativeActions } from './native';
import { dismissReport, listReports, resolveReport } from './reports';
import { moderate } from './actions';
import { listCases, moderationStats } from './case-log';
import { moderationState } from './state';
import { caseRoutes } from './case-routes';
import { caseCommand } from './case-commands';
import { appealCommands } from './appeal-commands';
import { appealRoutes } from './appeal-routes';
import { raidCommands } from './raid-commands';
import { protectFromRaids } from './raid-joins';
import { raidRoutes } from './raid-routes';
import { dashboardActor } from './standing';

const ReportParams = z.object({ id: rowId('must be a report id') });
const channelIdOf = (params: Record<string, string>) => ChannelParams.parse(params).channelId;

/** Moderation: actions as numbered cases, native actions recorded, temporary bans, the warning ladder, reports, ban appeals, auto moderation. */
export const moderationFeature: Feature = {
  name: 'moderation',
  commands: [...moderationCommands, ...channelCommands, caseCommand, automodTryCommand, ...appealCommands, ...raidCommands],
  messageCommands: [reportMessage],
  listeners: [recordNativeActions, enforceAutomod, reapplyTimeoutsOnJoin, protectFromRaids],
  state: moderationState,
  start: (services) => {
    const state = moderationState.of(services);
    state.tempbans.start();
    state.longTimeouts.start();
    state.raids.check.start();
  },
  stop: async (services) => {
    const state = moderationState.of(services);
    // Joins still being handled finish before the store closes.
    await state.raids.joins.settled();
    await state.raids.check.stop();
    await state.tempbans.stop();
    await state.longTimeouts.stop();
  },
  routes: [
    ...automodTryRoutes,
    ...caseRoutes,
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
      handler: ({ body, guild, account, services }): Promise<ModerationCase> => moderate(services, guild.id, body, dashboardActor(account)),
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
        resolveReport(services, guild.id, ReportParams.parse(params).id, body, dashboardActor(account)),
    }),
    guildRoute({
      method: 'post',
      path: '/moderation/reports/:id/dismiss',
      example: {},
      handler: ({ params, guild, account, services }): Promise<Report> =>
        dismissReport(services, guild.id, ReportParams.parse(params).id, dashboardActor(account)),
    }),
    ...appealRoutes,
    ...raidRoutes,
  ],
};
