// Editing a case after the fact (issue 24, point 1; Dyno's ?reason and ?duration): a new reason for
// any case, a new duration for a ban or a timeout still in force. A new duration counts from the
// case's start (see case-duration.ts) and changes Discord too: a timeout is applied anew for what is
// left (at most Discord's 28 days; the renewal of longer ones reads expiresAt) or lifted when
// already over; a ban's expiresAt moves and the temporary-ban sweep lifts it when it passes (a
// permanent ban may become temporary and back). Each change is kept on the case (who, when, from
// what to what) and the log channel is told.
import { PermissionFlagsBits, RESTJSONErrorCodes, type Guild, type GuildMember } from 'discord.js';
import { Op } from 'sequelize';
import { askDiscord } from '../../bot/discord-errors';
import { Conflict, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationLog } from '../../db/models/community';
import { MAX_REASON_LENGTH, type CaseEdit, type ModerationAction, type ModerationCase } from '../../shared/moderation';
import { caseDurationLabel, PERMANENT, type CaseDuration } from '../../shared/moderation-cases';
import { plannedEnd, timeoutRequest } from './case-duration';
import { withEdit } from './case-history';
import { isTimedOut } from './long-timeouts';
import { changingTimeout } from './timeout-changes';
import { cases, viewCase } from './cases';
import { ACTION_PERMISSIONS, checkStanding, isBanned, liveGuild, memberOf, PERMISSION_NAMES, type Actor } from './standing';

/** What changes: a new reason, a new duration, or both. */
export interface CaseChange {
  reason?: string | undefined;
  duration?: CaseDuration | undefined;
}

/** The case with this number, or NotFound in words. */
export async function findCase(services: Services, guildId: string, caseNumber: number): Promise<ModerationLog> {
  const row = await cases(services, guildId).findOne({ where: { caseNumber } });
  if (!row) throw new NotFound(`There is no case #${caseNumber} in this server.`);
  return row;
}

/** 'a ban', 'a timeout': how a case's action reads in a sentence. */
const aCase = (action: string) =>
  ({ ban: 'a ban', timeout: 'a timeout', warn: 'a warning', kick: 'a kick', note: 'a note', unban: 'an unban' })[action] ?? 'a case';

/**
 * Refuses a moderator who could not do the action themselves in Discord: the permission
 * (Ban Members for a ban, Timeout Members for a timeout or a warning). The owner holds them all;
 * the bot acting on its own is not asked.
 */
export async function requireModeratorPermission(guild: Guild, actor: Actor, action: ModerationAction, doing: string): Promise<void> {
  if (actor.source === 'automatic' || actor.source === 'discord' || actor.userId === guild.ownerId) return;
  const moderator = await memberOf(guild, actor.userId);
  if (!moderator) throw new Forbidden('You are not a member of this server.');
  if (!moderator.permissions.has(ACTION_PERMISSIONS[action]))
    throw new Forbidden(`You need the ${PERMISSION_NAMES[action]} permission in Discord to ${doing}.`);
}

/** Discord's refusal of a timeout change, in words. */
const timeoutRefusal = (guild: Guild) => (code: number) =>
  code === RESTJSONErrorCodes.MissingPermissions
    ? `${guild.members.me?.displayName ?? 'The bot'} is not allowed to time out that member: its highest role must be above theirs, with the ` +
      'Timeout Members permission.'
    : undefined;

/** The member of a timeout still in force, or Conflict saying why it is not. */
async function timeoutInForce(services: Services, guild: Guild, row: ModerationLog): Promise<GuildMember> {
  const over = `Case #${row.caseNumber}'s timeout is over, so its duration cannot change; time the member out again instead.`;
  if (row.liftedAt || !row.expiresAt || row.expiresAt.getTime() <= services.clock.ms()) throw new Conflict(over);
  const later = await cases(services, guild.id).findOne({
    where: { targetId: row.targetId, action: { [Op.in]: ['timeout', 'untimeout'] }, caseNumber: { [Op.gt]: row.caseNumber } },
    order: [['caseNumber', 'ASC']],
  });
  if (later) throw new Conflict(`Case #${row.caseNumber}'s timeout was replaced by case #${later.caseNumber}; change that case instead.`);
  const member = await memberOf(guild, row.targetId);
  if (!member) throw new Conflict(`${row.targetName ?? 'That member'} is no longer in the server, so the timeout of case #${row.caseNumber} cannot change.`);
  if (!(await isTimedOut(services, member)))
    throw new Conflict(`${member.displayName}'s timeout was lifted in Discord; case #${row.caseNumber} is no longer in force.`);
  return member;
}

/** Refuses a ban no longer in force (lifted, run out, or unbanned in Discord). */
async function requireBanInForce(services: Services, guild: Guild, row: ModerationLog): Promise<void> {
  const over = `Case #${row.caseNumber}'s ban is no longer in force, so its duration cannot change; ban the user again instead.`;
  if (row.liftedAt || (row.expiresAt && row.expiresAt.getTime() <= services.clock.ms())) throw new Conflict(over);
  if (!(await isBanned(guild, row.targetId))) throw new Conflict(over);
}

/** The new expiry, applied in Discord first for a timeout; returns the columns to store. */
async function applyDuration(
  services: Services,
  guild: Guild,
  row: ModerationLog,
  duration: CaseDuration,
  actor: Actor,
): Promise<Pick<ModerationLog, 'duration' | 'expiresAt' | 'liftedAt'>> {
  if (row.action !== 'ban' && row.action !== 'timeout')
    throw InvalidInput.field(
      'duration',
      'only a timeout or a ban has a duration',
      `Case #${row.caseNumber} is ${aCase(row.action)}: only a timeout or a ban has a duration.`,
    );
  if (row.action === 'timeout' && duration === PERMANENT)
    throw InvalidInput.field('duration', 'a timeout cannot be permanent', 'A timeout cannot be permanent: Discord ends every timeout. Pick a duration.');
  const doing = row.action === 'ban' ? "change a ban's duration" : "change a timeout's duration";
  await requireModeratorPermission(guild, actor, row.action, doing);
  const end = plannedEnd(row.createdAt.getTime(), duration);
  const stored = duration === PERMANENT ? null : duration;
  if (row.action === 'ban') {
    await requireBanInForce(services, guild, row);
    await checkStanding(guild, actor, 'ban', null);
    return { duration: stored, expiresAt: end === null ? null : new Date(end), liftedAt: null };
  }
  const member = await timeoutInForce(services, guild, row);
  await checkStanding(guild, actor, 'timeout', member);
  const ends = new Date(end ?? 0);
  const request = timeoutRequest(ends.getTime(), services.clock.ms());
  const reason = `${actor.name}: duration of case #${row.caseNumber} changed to ${caseDurationLabel(duration)}`.slice(0, MAX_REASON_LENGTH);
  await askDiscord(
    () => member.disableCommunicationUntil(request.lift ? null : request.until, reason),
    guild.members.me?.displayName ?? 'The bot',
    timeoutRefusal(guild),
  );
  return { duration: stored, expiresAt: ends, liftedAt: request.lift ? services.clock.now() : null };
}

/** Tells the log channel what changed on a case. */
async function announceEdit(services: Services, row: ModerationLog, edits: CaseEdit[], actor: Actor): Promise<void> {
  const ends = row.expiresAt ? `, ends <t:${Math.floor(row.expiresAt.getTime() / 1000)}:f>` : '';
  const lines = edits.map((edit) =>
    edit.field === 'reason'
      ? `Reason: ${edit.to ?? 'none'} (was: ${edit.from ?? 'none'})`
      : `Duration: ${caseDurationLabel(edit.to)} (was: ${caseDurationLabel(edit.from)})${ends}`,
  );
  await services.notifier.notify(row.guildId, {
    event: 'moderation',
    title: `Case #${row.caseNumber} updated`,
    description: lines.join('\n'),
    fields: [
      { name: 'Member', value: `${row.targetName ?? 'Unknown'} (${row.targetId})`, inline: true },
      { name: 'Changed by', value: `${actor.name} (${actor.userId})`, inline: true },
    ],
    data: { caseNumber: row.caseNumber, action: row.action, targetId: row.targetId, moderatorId: actor.userId, edited: edits.map((edit) => edit.field) },
  });
}

/**
 * Changes a case's reason and/or duration as `actor`. A duration change is checked first (the case
 * still in force, the moderator's permission and rank, the bot's), then done in Discord, then
 * stored: a refusal changes nothing. An unchanged value is not recorded as an edit.
 */
export async function editCase(services: Services, guildId: string, caseNumber: number, change: CaseChange, actor: Actor): Promise<ModerationCase> {
  const guild = liveGuild(services, guildId);
  const found = await findCase(services, guildId, caseNumber);
  // A timeout's change waits for the renewal sweep's look at the member, and holds it off until stored.
  if (found.action === 'timeout' && change.duration !== undefined)
    return changingTimeout(services, guildId, found.targetId, async () =>
      editRow(services, guild, await findCase(services, guildId, caseNumber), change, actor),
    );
  return editRow(services, guild, found, change, actor);
}

async function editRow(services: Services, guild: Guild, row: ModerationLog, change: CaseChange, actor: Actor): Promise<ModerationCase> {
  const guildId = guild.id;
  const at = services.clock.now().toISOString();
  const edits: CaseEdit[] = [];
  const updates: Partial<ModerationLog> = {};
  if (change.duration !== undefined) {
    const applied = await applyDuration(services, guild, row, change.duration, actor);
    Object.assign(updates, applied);
    if (applied.duration !== row.duration || applied.expiresAt?.getTime() !== row.expiresAt?.getTime())
      edits.push({
        at,
        byId: actor.userId,
        byName: actor.name,
        field: 'duration',
        from: row.duration ?? (row.action === 'ban' ? PERMANENT : null),
        to: applied.duration ?? PERMANENT,
      });
  }
  if (change.reason !== undefined && change.reason !== row.reason) {
    updates.reason = change.reason;
    edits.push({ at, byId: actor.userId, byName: actor.name, field: 'reason', from: row.reason, to: change.reason });
  }
  if (edits.length === 0) return viewCase(services, row);
  let history: unknown = row.edits;
  for (const edit of edits) history = withEdit(history, edit);
  // The sweep takes a fresh look at a changed expiry (claimedUntil also schedules its next look).
  if (updates.expiresAt !== undefined) updates.claimedUntil = null;
  await cases(services, guildId).update({ ...updates, edits: history as unknown[] }, { where: { id: row.id } });
  await row.reload();
  await announceEdit(services, row, edits, actor);
  return viewCase(services, row);
}

/** The Discord permission a moderator needs to edit a case's reason from a command (any case: Timeout Members). */
export const EDIT_PERMISSION = PermissionFlagsBits.ModerateMembers;
