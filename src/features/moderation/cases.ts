// Moderation cases: written under the guild's next number, shown to the dashboard, posted to the
// log channel, and read back one at a time (a case, a member's active warnings).
import { Op, UniqueConstraintError, type WhereOptions } from 'sequelize';
import { NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationLog } from '../../db/models/community';
import {
  CASE_ACTIONS,
  CASE_SOURCES,
  CHANNEL_ACTIONS,
  DURATION_LABELS,
  DURATIONS,
  type CaseAction,
  type CaseSource,
  type Duration,
  type ModerationCase,
} from '../../shared/moderation';
import type { GuildSettings } from '../../shared/settings';
import { readEdits } from './case-history';

/** Tries at a case number before giving up (two processes numbering the same guild at once). */
const CASE_NUMBER_TRIES = 5;

const VERBS: Record<CaseAction, string> = {
  ban: 'banned',
  kick: 'kicked',
  timeout: 'timed out',
  warn: 'warned',
  unban: 'unbanned',
  note: 'noted',
  delete: 'message deleted',
  untimeout: 'timeout lifted',
  purge: 'messages purged',
  slowmode: 'slowmode set',
  lock: 'channel locked',
  unlock: 'channel unlocked',
  pardon: 'warning pardoned',
};

const TITLES: Record<CaseAction, string> = {
  ban: 'Ban',
  kick: 'Kick',
  timeout: 'Timeout',
  warn: 'Warning',
  unban: 'Unban',
  note: 'Note',
  delete: 'Message deleted',
  untimeout: 'Timeout lifted',
  purge: 'Purge',
  slowmode: 'Slowmode',
  lock: 'Lock',
  unlock: 'Unlock',
  pardon: 'Pardon',
};

/** One guild's cases. */
export const cases = (services: Services, guildId: string) => services.store.guild(guildId).ModerationLog;

/** The fields of a new case. */
export interface CaseRecord {
  action: CaseAction;
  targetId: string;
  targetName: string | null;
  moderatorId: string;
  moderatorName: string | null;
  reason: string | null;
  source: CaseSource;
  duration?: Duration | null;
  expiresAt?: Date | null;
  dmDelivered?: boolean | null;
  auditEntryId?: string | null;
  details?: Record<string, unknown> | null;
}

/**
 * Writes a case under the guild's next number: the highest plus one, in a transaction that holds
 * the guild's numbering lock (SQLite runs one transaction at a time; PostgreSQL takes a
 * transaction-scoped advisory lock per guild, which also holds across processes). The unique index
 * stays the last word: a collision is retried. Returns null when the audit-log entry was recorded
 * already (the same native action seen twice).
 */
export async function recordCase(services: Services, guildId: string, record: CaseRecord): Promise<ModerationLog | null> {
  const { ModerationLog } = services.store.models;
  for (let attempt = 1; ; attempt++) {
    try {
      return await services.store.sequelize.transaction(async (transaction) => {
        if (services.store.dialect === 'postgres') {
          await services.store.sequelize.query("SELECT pg_advisory_xact_lock(hashtext('moderation_case:' || ?))", { replacements: [guildId], transaction });
        }
        const highest = (await ModerationLog.max<number, ModerationLog>('caseNumber', { where: { guildId }, transaction })) ?? 0;
        return ModerationLog.create(
          {
            guildId,
            caseNumber: highest + 1,
            action: record.action,
            targetId: record.targetId,
            targetName: record.targetName?.slice(0, 100) ?? null,
            moderatorId: record.moderatorId,
            moderatorName: record.moderatorName?.slice(0, 100) ?? null,
            reason: record.reason,
            details: record.details ?? null,
            source: record.source,
            duration: record.duration ?? null,
            expiresAt: record.expiresAt ?? null,
            liftedAt: null,
            claimedUntil: null,
            dmDelivered: record.dmDelivered ?? null,
            auditEntryId: record.auditEntryId ?? null,
            createdAt: services.clock.now(),
          },
          { transaction },
        );
      });
    } catch (error) {
      if (!(error instanceof UniqueConstraintError)) throw error;
      const fields = Object.keys(error.fields ?? {});
      if (
        record.auditEntryId &&
        (fields.includes('auditEntryId') || (await cases(services, guildId).count({ where: { auditEntryId: record.auditEntryId } })) > 0)
      )
        return null;
      if (attempt >= CASE_NUMBER_TRIES) throw error;
    }
  }
}

/** A case as the dashboard shows it, with the member's name and avatar when the guild still knows them. */
export function viewCase(services: Services, row: ModerationLog): ModerationCase {
  const guild = services.gateway.client?.guilds.cache.get(row.guildId);
  const member = guild?.members.cache.get(row.targetId);
  const user = member?.user ?? services.gateway.client?.users.cache.get(row.targetId);
  const moderator = guild?.members.cache.get(row.moderatorId);
  return {
    id: row.id,
    caseNumber: row.caseNumber,
    action: (CASE_ACTIONS as readonly string[]).includes(row.action) ? (row.action as CaseAction) : 'note',
    targetId: row.targetId,
    targetName: member?.displayName ?? user?.username ?? row.targetName,
    targetAvatarUrl: user ? user.displayAvatarURL({ size: 64 }) : null,
    moderatorId: row.moderatorId,
    moderatorName: moderator?.displayName ?? row.moderatorName,
    reason: row.reason,
    duration: row.duration && row.duration in DURATIONS ? (row.duration as Duration) : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    liftedAt: row.liftedAt?.toISOString() ?? null,
    source: (CASE_SOURCES as readonly string[]).includes(row.source) ? (row.source as CaseSource) : 'dashboard',
    dmDelivered: row.dmDelivered,
    createdAt: row.createdAt.toISOString(),
    pardonedAt: row.pardonedAt?.toISOString() ?? null,
    pardonCaseNumber: row.pardonCaseNumber ?? null,
    pardonOf: row.action === 'pardon' && typeof row.details?.caseNumber === 'number' ? row.details.caseNumber : null,
    edits: readEdits(row.edits),
  };
}

/** Posts the case to the log channel (and the webhook) when the guild wants moderation notifications. */
export async function announceCase(services: Services, row: ModerationLog): Promise<void> {
  const view = viewCase(services, row);
  const fields = [
    {
      name: (CHANNEL_ACTIONS as readonly string[]).includes(view.action) ? 'Channel' : 'Member',
      value: `${view.targetName ?? 'Unknown'} (${view.targetId})`,
      inline: true,
    },
    { name: 'Moderator', value: `${view.moderatorName ?? 'Unknown'} (${view.moderatorId})`, inline: true },
    ...(view.duration ? [{ name: 'Duration', value: DURATION_LABELS[view.duration], inline: true }] : []),
    ...(view.pardonOf !== null ? [{ name: 'Pardons', value: `Warning #${view.pardonOf}`, inline: true }] : []),
    { name: 'Source', value: view.source, inline: true },
    ...(view.dmDelivered === false ? [{ name: 'DM', value: 'The member could not be told by DM.', inline: true }] : []),
  ];
  await services.notifier.notify(row.guildId, {
    event: 'moderation',
    title: `Case #${view.caseNumber} · ${TITLES[view.action]}`,
    description: view.reason ? `Reason: ${view.reason}` : 'No reason given.',
    fields,
    data: {
      caseNumber: view.caseNumber,
      action: view.action,
      targetId: view.targetId,
      moderatorId: view.moderatorId,
      source: view.source,
      reason: view.reason,
    },
  });
}

/** Warnings that still count: not pardoned, and newer than the guild's expiry (all of them when it is 0). */
export async function activeWarnings(
  services: Services,
  guildId: string,
  targetId: string,
  settings: Pick<GuildSettings, 'warningExpiryDays'>,
): Promise<ModerationLog[]> {
  const where: WhereOptions = { targetId, action: 'warn', pardonedAt: null };
  if (settings.warningExpiryDays > 0) Object.assign(where, { createdAt: { [Op.gt]: new Date(services.clock.ms() - settings.warningExpiryDays * 86_400_000) } });
  return cases(services, guildId).findAll({ where, order: [['caseNumber', 'DESC']] });
}

/** Marks a member's temporary bans lifted (they were unbanned, by whoever). */
export async function liftBans(services: Services, guildId: string, targetId: string): Promise<void> {
  await cases(services, guildId).update({ liftedAt: services.clock.now() }, { where: { targetId, action: 'ban', liftedAt: null } });
}

/** One case by its number. */
export async function caseByNumber(services: Services, guildId: string, caseNumber: number): Promise<ModerationCase> {
  const row = await cases(services, guildId).findOne({ where: { caseNumber } });
  if (!row) throw new NotFound(`There is no case #${caseNumber} in this server.`);
  return viewCase(services, row);
}

/** How a case reads in one line (commands). */
export function caseLine(view: ModerationCase): string {
  const length = view.duration ? ` (${DURATION_LABELS[view.duration]})` : '';
  return (
    `#${view.caseNumber} · ${VERBS[view.action]}${length} · ${view.targetName ?? view.targetId} · by ${view.moderatorName ?? view.moderatorId} · ` +
    `${view.reason ?? 'no reason'}`
  );
}
