// Members report members (/report) or one message (the 'Report message' menu). Each report is
// stored with the message's link and text as they were, posted to the log channel as a moderation
// alert, and listed in the dashboard's View Reports, where a moderator resolves it (optionally
// taking an action, whose case it links) or dismisses it.
import { Op } from 'sequelize';
import { Conflict, InvalidInput, NotFound, RateLimited } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationReport } from '../../db/models/community';
import {
  REPORT_REPEAT_MESSAGES,
  REPORT_REPEAT_WINDOW_MS,
  REPORT_SELF_MESSAGES,
  REPORT_STATUSES,
  type Report,
  type ReportsPage,
  type ReportStatus,
  type ResolveReportInput,
} from '../../shared/reports';
import { messageUrl } from '../../shared/discord-urls';
import { moderate } from './actions';
import type { Actor } from './standing';

const reports = (services: Services, guildId: string) => services.store.guild(guildId).ModerationReport;

/** The most of a reported message's text kept with the report. */
const CONTENT_KEPT = 2000;

/** Who reports, whom, why, and the message if one was reported. */
export interface ReportInput {
  reporter: { id: string; name: string };
  target: { id: string; name: string };
  reason: string;
  message?: { id: string; channelId: string; content: string } | undefined;
}

/** A report as View Reports lists it. */
export async function viewReport(services: Services, row: ModerationReport): Promise<Report> {
  const caseRow = row.caseId ? await services.store.guild(row.guildId).ModerationLog.findByPk(row.caseId) : null;
  return {
    id: row.id,
    reporterId: row.reporterId,
    reporterName: row.reporterName,
    targetId: row.targetId,
    targetName: row.targetName,
    reason: row.reason,
    messageUrl: row.messageId && row.channelId ? messageUrl(services.meta, row.guildId, row.channelId, row.messageId) : null,
    content: row.content,
    status: (REPORT_STATUSES as readonly string[]).includes(row.status) ? (row.status as ReportStatus) : 'open',
    caseNumber: caseRow?.caseNumber ?? null,
    resolvedById: row.resolvedById,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Stores a report and alerts the moderators in the log channel. A member cannot report themselves
 * or their own message (InvalidInput), nor a member they reported within REPORT_REPEAT_WINDOW_MS
 * (RateLimited, saying when they can again, or that the earlier report is still open). The check
 * reads the stored reports, so it holds across restarts and processes, and runs in the transaction
 * that writes the report, under a lock on the pair (SQLite runs one transaction at a time;
 * PostgreSQL takes a transaction-scoped advisory lock), so two reports at once cannot both pass.
 */
export async function createReport(services: Services, guildId: string, input: ReportInput): Promise<Report> {
  if (input.reporter.id === input.target.id) {
    throw input.message
      ? InvalidInput.field('message', 'cannot be your own', REPORT_SELF_MESSAGES.message)
      : InvalidInput.field('member', 'cannot be yourself', REPORT_SELF_MESSAGES.member);
  }
  const row = await services.store.sequelize.transaction(async (transaction) => {
    if (services.store.dialect === 'postgres') {
      await services.store.sequelize.query("SELECT pg_advisory_xact_lock(hashtext('moderation_report:' || ? || ':' || ? || ':' || ?))", {
        replacements: [guildId, input.reporter.id, input.target.id],
        transaction,
      });
    }
    const now = services.clock.now();
    const earlier = await reports(services, guildId).findOne({
      where: { reporterId: input.reporter.id, targetId: input.target.id, createdAt: { [Op.gt]: new Date(now.getTime() - REPORT_REPEAT_WINDOW_MS) } },
      order: [['createdAt', 'DESC']],
      transaction,
    });
    if (earlier) {
      const waitMs = earlier.createdAt.getTime() + REPORT_REPEAT_WINDOW_MS - now.getTime();
      const say = earlier.status === 'open' ? REPORT_REPEAT_MESSAGES.stillOpen : REPORT_REPEAT_MESSAGES.recent;
      throw new RateLimited(Math.ceil(waitMs / 1000), say(input.target.name, waitMs));
    }
    return reports(services, guildId).create(reportValues(input, now), { transaction });
  });
  return announceReport(services, guildId, input, row);
}

/** The stored row of a new report. */
function reportValues(input: ReportInput, now: Date) {
  return {
    reporterId: input.reporter.id,
    reporterName: input.reporter.name.slice(0, 100),
    targetId: input.target.id,
    targetName: input.target.name.slice(0, 100),
    reason: input.reason,
    channelId: input.message?.channelId ?? null,
    messageId: input.message?.id ?? null,
    content: input.message ? input.message.content.slice(0, CONTENT_KEPT) : null,
    status: 'open',
    caseId: null,
    resolvedById: null,
    resolvedAt: null,
    createdAt: now,
  };
}

/** Posts a stored report to the log channel (and the webhook) as a moderation alert. */
async function announceReport(services: Services, guildId: string, input: ReportInput, row: ModerationReport): Promise<Report> {
  const view = await viewReport(services, row);
  await services.notifier.notify(guildId, {
    event: 'moderation',
    title: `Report #${row.id} · ${input.target.name}`,
    description: `Reason: ${input.reason}`,
    fields: [
      { name: 'Reported by', value: `${input.reporter.name} (${input.reporter.id})`, inline: true },
      { name: 'Member', value: `${input.target.name} (${input.target.id})`, inline: true },
      ...(view.messageUrl ? [{ name: 'Message', value: `${view.messageUrl}\n${(view.content ?? '').slice(0, 900) || '(no text)'}` }] : []),
    ],
    data: { reportId: row.id, reporterId: input.reporter.id, targetId: input.target.id, messageUrl: view.messageUrl },
  });
  return view;
}

/** View Reports: newest first, by status, paged. */
export async function listReports(services: Services, guildId: string, query: { status: string; page: number; pageSize: number }): Promise<ReportsPage> {
  const where = query.status === 'all' ? {} : { status: query.status };
  const [rows, total] = await Promise.all([
    reports(services, guildId).findAll({ where, order: [['id', 'DESC']], limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
    reports(services, guildId).count({ where }),
  ]);
  return { entries: await Promise.all(rows.map((row) => viewReport(services, row))), page: query.page, pageSize: query.pageSize, total };
}

/** An open report, or what became of it. */
async function openReport(services: Services, guildId: string, id: number): Promise<ModerationReport> {
  const row = await reports(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound('That report does not exist in this server.');
  if (row.status !== 'open') throw new Conflict(`That report was already ${row.status}.`);
  return row;
}

/** Settles an open report once: a concurrent settle of the same report gets a Conflict. */
async function settle(
  services: Services,
  guildId: string,
  id: number,
  values: { status: ReportStatus; caseId: number | null; resolvedById: string },
): Promise<ModerationReport> {
  const count = await reports(services, guildId).update({ ...values, resolvedAt: services.clock.now() }, { where: { id, status: 'open' } });
  if (count === 0) throw new Conflict('That report was settled by someone else just now.');
  const row = await reports(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound('That report does not exist in this server.');
  return row;
}

/** Resolves a report, first taking the chosen action on the reported member (its case is linked). */
export async function resolveReport(services: Services, guildId: string, id: number, input: ResolveReportInput, actor: Actor): Promise<Report> {
  const row = await openReport(services, guildId, id);
  const taken = input.action ? await moderate(services, guildId, { ...input.action, targetId: row.targetId }, actor) : null;
  return viewReport(services, await settle(services, guildId, id, { status: 'resolved', caseId: taken?.id ?? null, resolvedById: actor.userId }));
}

/** Dismisses a report. */
export async function dismissReport(services: Services, guildId: string, id: number, actor: Actor): Promise<Report> {
  await openReport(services, guildId, id);
  return viewReport(services, await settle(services, guildId, id, { status: 'dismissed', caseId: null, resolvedById: actor.userId }));
}
