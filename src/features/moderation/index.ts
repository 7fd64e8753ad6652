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
import { moderationCommands, reportMessage } from './commands';
import { enforceAutomod } from './enforce';
import { recordNativeActions } from './native';
import { dismissReport, listReports, resolveReport } from './reports';
import { moderate } from './actions';
import { listCases, moderationStats } from './case-log';
import { moderationState } from './state';

const ReportParams = z.object({ id: rowId('must be a report id') });

/** Moderation: actions as numbered cases, native actions recorded, temporary bans, the warning ladder, reports, auto moderation. */
export const moderationFeature: Feature = {
  name: 'moderation',
  commands: moderationCommands,
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
