// A guild's audit log in the sandbox: the entries moderation actions leave (kept for GET
// /audit-logs, sent as GUILD_AUDIT_LOG_ENTRY_CREATE), and the change lists they carry.
import { AuditLogEvent, GatewayDispatchEvents, type APIAuditLogChange, type APIAuditLogEntry } from 'discord-api-types/v10';
import type { GuildRecord } from './types';
import type { WorldState } from './world-state';

/** Audit-log entries kept per guild. */
const AUDIT_LOG_KEPT = 1000;

/** Who did a moderation action and why (for the audit log). */
export interface ActionContext {
  actorId?: string;
  reason?: string | null;
}

/** Records an audit-log entry (kept for GET /audit-logs) and sends GUILD_AUDIT_LOG_ENTRY_CREATE; `targetId` is null where Discord names none (invites). */
export function recordAudit(
  world: WorldState,
  guildId: string,
  action: AuditLogEvent,
  targetId: string | null,
  context: ActionContext,
  changes: APIAuditLogChange[],
  options?: APIAuditLogEntry['options'],
): void {
  const entry: APIAuditLogEntry = {
    id: world.snowflakes.next(),
    action_type: action,
    target_id: targetId,
    user_id: context.actorId ?? null,
    ...(changes.length > 0 ? { changes } : {}),
    ...(context.reason ? { reason: context.reason } : {}),
    ...(options ? { options } : {}),
  };
  const guild = world.requireGuild(guildId);
  guild.auditLog.push(entry);
  if (guild.auditLog.length > AUDIT_LOG_KEPT) guild.auditLog.splice(0, guild.auditLog.length - AUDIT_LOG_KEPT);
  world.emit(guildId, { t: GatewayDispatchEvents.GuildAuditLogEntryCreate, d: { ...entry, guild_id: guildId } });
}

/** The `$add` and `$remove` changes of a member's roles going from `before` to `after`. */
export function roleDiff(guild: GuildRecord, before: string[], after: string[]): APIAuditLogChange[] {
  const named = (ids: string[]) => ids.map((id) => ({ id, name: guild.roles.get(id)?.name ?? '' }));
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  const changes: APIAuditLogChange[] = [];
  if (added.length > 0) changes.push({ key: '$add', new_value: named(added) });
  if (removed.length > 0) changes.push({ key: '$remove', new_value: named(removed) });
  return changes;
}
