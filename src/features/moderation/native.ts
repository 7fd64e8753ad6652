// Actions moderators take in Discord's own UI (ban, unban, kick, timeout) become cases too, read
// from the audit-log events with the real moderator, as Zeppelin does. What the bot did itself is
// recorded where it did it, so entries by the bot are skipped; an entry seen twice (a replayed
// event) is recorded once (its id is unique per guild).
import { AuditLogEvent, Events, type Guild, type GuildAuditLogsEntry } from 'discord.js';
import { listener } from '../../core/feature';
import type { Services } from '../../core/services';
import type { CaseAction } from '../../shared/moderation';
import { announceCase, liftBans, recordCase } from './cases';
import { liftTimeouts } from './long-timeouts';

/** The case an audit-log entry stands for, or null when it is not a moderation action. */
function caseOf(entry: GuildAuditLogsEntry, now: number): { action: CaseAction; expiresAt: Date | null } | null {
  switch (entry.action) {
    case AuditLogEvent.MemberBanAdd:
      return { action: 'ban', expiresAt: null };
    case AuditLogEvent.MemberBanRemove:
      return { action: 'unban', expiresAt: null };
    case AuditLogEvent.MemberKick:
      return { action: 'kick', expiresAt: null };
    case AuditLogEvent.MemberUpdate: {
      const change = entry.changes.find((c) => c.key === 'communication_disabled_until');
      if (!change) return null;
      const until = typeof change.new === 'string' ? new Date(change.new) : null;
      if (until && until.getTime() > now) return { action: 'timeout', expiresAt: until };
      return change.old ? { action: 'untimeout', expiresAt: null } : null;
    }
    default:
      return null;
  }
}

/** Records one native action as a case and posts it to the log channel. */
export async function recordNativeAction(services: Services, entry: GuildAuditLogsEntry, guild: Guild): Promise<void> {
  const botId = services.gateway.client?.user?.id;
  if (!entry.executorId || entry.executorId === botId || !entry.targetId) return;
  const found = caseOf(entry, services.clock.ms());
  if (!found) return;
  const moderator = guild.members.cache.get(entry.executorId) ?? null;
  const target = guild.members.cache.get(entry.targetId) ?? null;
  const targetUser = target?.user ?? services.gateway.client?.users.cache.get(entry.targetId) ?? null;
  const row = await recordCase(services, guild.id, {
    action: found.action,
    targetId: entry.targetId,
    targetName: target?.displayName ?? targetUser?.username ?? null,
    moderatorId: entry.executorId,
    moderatorName: moderator?.displayName ?? services.gateway.client?.users.cache.get(entry.executorId)?.username ?? null,
    reason: entry.reason,
    source: 'discord',
    expiresAt: found.expiresAt,
    auditEntryId: entry.id,
  });
  if (!row) return;
  if (found.action === 'unban') await liftBans(services, guild.id, entry.targetId);
  // A timeout lifted in Discord ends the case's timeout: the bot no longer renews a long one.
  if (found.action === 'untimeout') await liftTimeouts(services, guild.id, entry.targetId);
  await announceCase(services, row);
}

/** GUILD_AUDIT_LOG_ENTRY_CREATE → a case for each native moderation action. */
export const recordNativeActions = listener(Events.GuildAuditLogEntryCreate, 'RecordNativeModeration', (services, entry, guild) =>
  recordNativeAction(services, entry, guild),
);
