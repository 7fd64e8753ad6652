// Moderation actions and their cases. One function, `moderate`, serves the dashboard, the slash
// commands, report resolutions, the warning ladder and auto moderation: it checks the actor's and
// the bot's standing against the target, DMs the member when the guild wants it, does the action
// over Discord, and only then writes the case (numbered per guild), posts it to the log channel
// and applies the warning ladder.
import { PermissionFlagsBits, RESTJSONErrorCodes, type Guild, type GuildMember } from 'discord.js';
import { Op, UniqueConstraintError, type WhereOptions } from 'sequelize';
import { askDiscord } from '../../bot/discord-errors';
import { DiscordRefused, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationLog } from '../../db/models/community';
import { GuildScope } from '../../db/scoped';
import {
  CASE_ACTIONS,
  CASE_SOURCES,
  DURATION_LABELS,
  DURATIONS,
  type CaseAction,
  type CaseSource,
  type Duration,
  type ModerationAction,
  type ModerationCase,
  type ModerationLogsPage,
  type ModerationStats,
} from '../../shared/moderation';
import type { GuildSettings } from '../../shared/settings';

/** Who acts: a moderator (from the dashboard or a command) or the bot itself (automatic). */
export interface Actor {
  userId: string;
  name: string;
  source: CaseSource;
}

/** One action to take. */
export interface ActionRequest {
  action: ModerationAction;
  targetId: string;
  reason: string;
  duration?: Duration | undefined;
}

/** Discord's longest timeout: 28 days. */
const MAX_TIMEOUT_MS = 28 * 86_400_000;
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
};
/** The Discord permission each action needs of the bot (and of a moderator using a command). */
export const ACTION_PERMISSIONS: Record<ModerationAction, bigint> = {
  ban: PermissionFlagsBits.BanMembers,
  unban: PermissionFlagsBits.BanMembers,
  kick: PermissionFlagsBits.KickMembers,
  timeout: PermissionFlagsBits.ModerateMembers,
  warn: PermissionFlagsBits.ModerateMembers,
  note: PermissionFlagsBits.ModerateMembers,
};
const PERMISSION_NAMES: Record<ModerationAction, string> = {
  ban: 'Ban Members',
  unban: 'Ban Members',
  kick: 'Kick Members',
  timeout: 'Timeout Members',
  warn: 'Timeout Members',
  note: 'Timeout Members',
};

const cases = (services: Services, guildId: string) => new GuildScope(services.store.models.ModerationLog, guildId);

/** The guild as discord.js holds it, or NotFound. */
export function liveGuild(services: Services, guildId: string): Guild {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  if (!guild) throw new NotFound('The bot is not in that server.');
  return guild;
}

/**
 * The target is not in the server. The dashboard's field is named; the sentence names no field,
 * since /kick and /warn call it `member`.
 */
const notAMember = () => InvalidInput.field('targetId', 'is not a member of this server', 'That user is not a member of this server.');

/** The member, or null when the user is not in the guild; Discord failing to answer is said in words. */
async function memberOf(guild: Guild, userId: string): Promise<GuildMember | null> {
  try {
    return await askDiscord(() => guild.members.fetch(userId), guild.members.me?.displayName ?? 'The bot');
  } catch (error) {
    if (error instanceof DiscordRefused && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser)) return null;
    throw error;
  }
}

/** Whether the user is banned, asked of Discord (not the cache); Discord failing to answer is said in words, not taken for "not banned". */
async function isBanned(guild: Guild, userId: string): Promise<boolean> {
  try {
    await askDiscord(() => guild.bans.fetch({ user: userId, force: true }), guild.members.me?.displayName ?? 'The bot');
    return true;
  } catch (error) {
    if (error instanceof DiscordRefused && (error.code === RESTJSONErrorCodes.UnknownBan || error.code === RESTJSONErrorCodes.UnknownUser)) return false;
    throw error;
  }
}

/** The bot acting on its own (the warning ladder, auto moderation, expiring bans). */
export function botActor(services: Services, guildId: string): Actor {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const me = guild?.members.me;
  return { userId: me?.id ?? services.gateway.client?.user?.id ?? '0', name: me?.displayName ?? 'the bot', source: 'automatic' };
}

/**
 * Refuses what the actor may not do: themselves, the owner, the bot, and (for people) a member
 * whose highest role is at or above their own; then what the bot cannot do: a member at or above
 * its highest role, or an action it lacks the permission for.
 */
async function checkStanding(guild: Guild, actor: Actor, action: ModerationAction, target: GuildMember | null): Promise<void> {
  const me = guild.members.me;
  const botName = me?.displayName ?? 'The bot';
  if (target) {
    if (target.id === me?.id) throw new Forbidden(`${botName} cannot act on itself.`);
    if (actor.source !== 'automatic' && target.id === actor.userId && action !== 'note') throw new Forbidden('You cannot moderate yourself.');
    if (target.id === guild.ownerId && action !== 'note') throw new Forbidden('The server owner cannot be moderated.');
  }
  if (actor.source === 'dashboard' || actor.source === 'command') {
    if (actor.userId !== guild.ownerId && target && action !== 'note') {
      const moderator = await memberOf(guild, actor.userId);
      if (!moderator) throw new Forbidden('You are not a member of this server.');
      if (target.roles.highest.position >= moderator.roles.highest.position) {
        throw new Forbidden(`${target.displayName}'s highest role (${target.roles.highest.name}) is at or above yours, so you cannot ${action} them.`);
      }
    }
  }
  if (action === 'warn' || action === 'note') return;
  if (!me) throw new DiscordRefused(0, 'The bot is not in that server.');
  if (!me.permissions.has(ACTION_PERMISSIONS[action])) {
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${botName} needs the ${PERMISSION_NAMES[action]} permission. Give it to its role in Server Settings → Roles.`,
    );
  }
  if (target && action !== 'unban' && target.roles.highest.position >= me.roles.highest.position) {
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${target.roles.highest.name} is above ${botName}'s highest role. Move ${botName}'s role above it in Server Settings → Roles.`,
    );
  }
  if (target && action === 'timeout' && target.permissions.has(PermissionFlagsBits.Administrator)) {
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${target.displayName} is an administrator; Discord does not allow timing out administrators.`,
    );
  }
}

/** Tells the member what is about to happen and why; true when the DM arrived, false when it did not. */
async function tellMember(services: Services, guild: Guild, targetId: string, request: ActionRequest): Promise<boolean> {
  const what = { ban: 'banned from', kick: 'kicked from', timeout: 'timed out in', warn: 'warned in' }[request.action as 'ban' | 'kick' | 'timeout' | 'warn'];
  const length = request.duration ? ` for ${DURATION_LABELS[request.duration]}` : '';
  try {
    const outcome = await services.messenger.dm(guild.id, targetId, {
      embeds: [{ title: `You were ${what} ${guild.name}${length}`, description: `Reason: ${request.reason}`, color: 0xe74c3c }],
    });
    return outcome === 'sent';
  } catch (error) {
    services.logger.warn({ err: error, guildId: guild.id, targetId }, 'could not DM the member about a moderation action');
    return false;
  }
}

/** The kick or ban the member was told of did not happen (Discord refused or did not answer): they are told so, best effort. */
async function takeBack(services: Services, guild: Guild, request: ActionRequest): Promise<void> {
  const what = request.action === 'ban' ? 'ban from' : 'kick from';
  try {
    await services.messenger.dm(guild.id, request.targetId, {
      embeds: [{ title: `The ${what} ${guild.name} did not go through`, description: 'Disregard the previous message: nothing was done.', color: 0x95a5a6 }],
    });
  } catch (error) {
    services.logger.warn(
      { err: error, guildId: guild.id, targetId: request.targetId },
      'could not tell the member that a moderation action did not go through',
    );
  }
}

/** What Discord shows in its audit log as the reason: who did it through the bot, and why. */
const auditReason = (actor: Actor, reason: string) => `${actor.name}: ${reason}`.slice(0, 512);

/** Does the action over Discord; its refusals become DiscordRefused in words. */
async function act(guild: Guild, request: ActionRequest, target: GuildMember | null, actor: Actor): Promise<void> {
  const botName = guild.members.me?.displayName ?? 'The bot';
  const reason = auditReason(actor, request.reason);
  const refusedBy = (code: number) =>
    code === RESTJSONErrorCodes.MissingPermissions
      ? `${botName} is not allowed to ${request.action} that member: its highest role must be above theirs, with the ` +
        `${PERMISSION_NAMES[request.action]} permission.`
      : undefined;
  switch (request.action) {
    case 'ban':
      await askDiscord(() => guild.members.ban(request.targetId, { reason }), botName, refusedBy);
      return;
    case 'unban':
      await askDiscord(
        () => guild.members.unban(request.targetId, reason),
        botName,
        (code) => (code === RESTJSONErrorCodes.UnknownBan ? 'That user is not banned here.' : refusedBy(code)),
      );
      return;
    case 'kick':
      if (!target) throw notAMember();
      await askDiscord(() => target.kick(reason), botName, refusedBy);
      return;
    case 'timeout':
      if (!target) throw notAMember();
      await askDiscord(() => target.timeout(Math.min(DURATIONS[request.duration ?? '1h'], MAX_TIMEOUT_MS), reason), botName, refusedBy);
      return;
    case 'warn':
    case 'note':
      return;
  }
}

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
  };
}

/** Posts the case to the log channel (and the webhook) when the guild wants moderation notifications. */
export async function announceCase(services: Services, row: ModerationLog): Promise<void> {
  const view = viewCase(services, row);
  const fields = [
    { name: 'Member', value: `${view.targetName ?? 'Unknown'} (${view.targetId})`, inline: true },
    { name: 'Moderator', value: `${view.moderatorName ?? 'Unknown'} (${view.moderatorId})`, inline: true },
    ...(view.duration ? [{ name: 'Duration', value: DURATION_LABELS[view.duration], inline: true }] : []),
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

/** Warnings that still count: newer than the guild's expiry (all of them when it is 0). */
export async function activeWarnings(
  services: Services,
  guildId: string,
  targetId: string,
  settings: Pick<GuildSettings, 'warningExpiryDays'>,
): Promise<ModerationLog[]> {
  const where: WhereOptions = { targetId, action: 'warn' };
  if (settings.warningExpiryDays > 0) Object.assign(where, { createdAt: { [Op.gt]: new Date(services.clock.ms() - settings.warningExpiryDays * 86_400_000) } });
  return cases(services, guildId).findAll({ where, order: [['caseNumber', 'DESC']] });
}

/**
 * Takes a moderation action and records it as a case. Order: the actor's and the bot's standing,
 * the DM before a kick or ban (so it can still arrive; taken back if the action then fails), the
 * action over Discord, the DM of a timeout or warning, then the case, its log-channel post and,
 * for a warning, the ladder. A refusal at any step leaves no case.
 */
export async function moderate(services: Services, guildId: string, request: ActionRequest, actor: Actor): Promise<ModerationCase> {
  const guild = liveGuild(services, guildId);
  const settings = await services.settings.get(guildId);
  const target = request.action === 'unban' ? null : await memberOf(guild, request.targetId);
  if (!target && (request.action === 'kick' || request.action === 'timeout' || request.action === 'warn')) throw notAMember();
  if (request.action === 'unban') {
    if (!(await isBanned(guild, request.targetId)))
      throw InvalidInput.field('targetId', 'is not banned in this server', 'That user is not banned in this server.');
  }
  await checkStanding(guild, actor, request.action, target);

  const dmAction = request.action === 'ban' || request.action === 'kick' || request.action === 'timeout' || request.action === 'warn' ? request.action : null;
  const wantsDm = Boolean(dmAction && settings.moderationDm[dmAction] && target);
  // A kick or ban is told first (after it the bot shares no server with the member, so the DM
  // could not arrive); a timeout or warning once done, so the member is never told of an action
  // that Discord then refused or failed to do.
  const dmFirst = request.action === 'ban' || request.action === 'kick';
  let dmDelivered: boolean | null = wantsDm && dmFirst ? await tellMember(services, guild, request.targetId, request) : null;
  try {
    await act(guild, request, target, actor);
  } catch (error) {
    if (dmDelivered) await takeBack(services, guild, request);
    throw error;
  }
  if (wantsDm && !dmFirst) dmDelivered = await tellMember(services, guild, request.targetId, request);

  const targetUser = target?.user ?? (await services.gateway.client?.users.fetch(request.targetId).catch(() => null));
  const expiresAt =
    request.duration && (request.action === 'ban' || request.action === 'timeout') ? new Date(services.clock.ms() + DURATIONS[request.duration]) : null;
  const row = await recordCase(services, guildId, {
    action: request.action,
    targetId: request.targetId,
    targetName: target?.displayName ?? targetUser?.username ?? null,
    moderatorId: actor.userId,
    moderatorName: actor.name,
    reason: request.reason,
    source: actor.source,
    duration: request.duration ?? null,
    expiresAt,
    dmDelivered,
  });
  if (!row) throw new Error('a case without an audit entry was taken for a duplicate');
  if (request.action === 'unban') await liftBans(services, guildId, request.targetId);
  await announceCase(services, row);
  if (request.action === 'warn') await escalate(services, guildId, request.targetId, settings);
  return viewCase(services, row);
}

/** Marks a member's temporary bans lifted (they were unbanned, by whoever). */
export async function liftBans(services: Services, guildId: string, targetId: string): Promise<void> {
  await services.store.models.ModerationLog.update({ liftedAt: services.clock.now() }, { where: { guildId, targetId, action: 'ban', liftedAt: null } });
}

/**
 * The warning ladder: when a member's active warnings reach a step's count, the bot takes that
 * step's action as an automatic case. A step that fails (the member left, the bot lost a
 * permission) is logged, never thrown at the moderator whose warning was recorded.
 */
async function escalate(services: Services, guildId: string, targetId: string, settings: GuildSettings): Promise<void> {
  if (settings.escalation.length === 0) return;
  const count = (await activeWarnings(services, guildId, targetId, settings)).length;
  const step = settings.escalation.find((candidate) => candidate.warnings === count);
  if (!step) return;
  try {
    await moderate(
      services,
      guildId,
      { action: step.action, targetId, reason: `Automatic: ${count} active warnings`, duration: step.duration ?? undefined },
      botActor(services, guildId),
    );
  } catch (error) {
    services.logger.warn({ err: error, guildId, targetId, step }, 'the warning ladder could not act');
  }
}

/** Escapes LIKE's wildcards in text searched for. */
const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Moderation Logs: newest first, filtered by action and searched (reason, target id or name, moderator name, or #case). */
export async function listCases(
  services: Services,
  guildId: string,
  query: { q: string; action: string; page: number; pageSize: number },
): Promise<ModerationLogsPage> {
  const where: Record<string | symbol, unknown> = {};
  if (query.action !== 'all') where.action = query.action;
  const q = query.q.trim();
  if (q) {
    const like = services.store.dialect === 'postgres' ? Op.iLike : Op.like;
    const pattern = `%${likeText(q)}%`;
    const or: WhereOptions[] = [
      { reason: { [like]: pattern } },
      { targetId: { [Op.like]: `${likeText(q)}%` } },
      { targetName: { [like]: pattern } },
      { moderatorName: { [like]: pattern } },
    ];
    const caseNumber = /^#?(\d{1,9})$/.exec(q);
    if (caseNumber) or.push({ caseNumber: Number(caseNumber[1]) });
    where[Op.or] = or;
  }
  const [rows, total] = await Promise.all([
    cases(services, guildId).findAll({
      where: where as WhereOptions,
      order: [['caseNumber', 'DESC']],
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    cases(services, guildId).count({ where: where as WhereOptions }),
  ]);
  return { entries: rows.map((row) => viewCase(services, row)), page: query.page, pageSize: query.pageSize, total };
}

/** The four cards (and kicks, open reports), counted over the whole log. */
export async function moderationStats(services: Services, guildId: string): Promise<ModerationStats> {
  const counted = (await services.store.models.ModerationLog.count({ where: { guildId }, group: ['action'] })) as unknown as {
    action: string;
    count: number;
  }[];
  const of = (action: string) => Number(counted.find((row) => row.action === action)?.count ?? 0);
  const openReports = await services.store.models.ModerationReport.count({ where: { guildId, status: 'open' } });
  return {
    totalActions: counted.reduce((sum, row) => sum + Number(row.count), 0),
    bans: of('ban'),
    warnings: of('warn'),
    timeouts: of('timeout'),
    kicks: of('kick'),
    openReports,
  };
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
