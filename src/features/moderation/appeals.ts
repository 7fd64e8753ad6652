// Ban appeals (issue 24, point 6). The ban's DM links to the dashboard's appeal page, where the
// banned member (signed in with Discord; only the case's target) appeals their ban in force, once
// at a time per case. Moderators with Ban Members accept (the ban is lifted through `moderate`, as
// an unban case naming the appeal) or deny with a reason; either way the member is told by DM
// where Discord lets the bot reach them, and the appeal page shows the outcome.
import { PermissionFlagsBits, type Guild } from 'discord.js';
import { UniqueConstraintError } from 'sequelize';
import { Conflict, Forbidden, InvalidInput, NotFound, RateLimited } from '../../core/errors';
import type { Services } from '../../core/services';
import type { ModerationAppeal } from '../../db/models/appeal';
import type { ModerationLog } from '../../db/models/community';
import {
  APPEAL_MESSAGES,
  APPEAL_RETRY_MS,
  APPEAL_STATUSES,
  type Appeal,
  type AppealsPage,
  type AppealStatus,
  type MemberAppealView,
} from '../../shared/appeals';
import { MAX_REASON_LENGTH, type ModerationCase } from '../../shared/moderation';
import { moderate } from './actions';
import { appealUrl } from './appeal-link';
import { cases, liftBans } from './cases';
import { liveGuild, memberOf, type Actor } from './standing';

const appeals = (services: Services, guildId: string) => services.store.guild(guildId).ModerationAppeal;

/** The member's latest ban case in the server, or null. */
const latestBan = (services: Services, guildId: string, userId: string) =>
  cases(services, guildId).findOne({ where: { targetId: userId, action: 'ban' }, order: [['caseNumber', 'DESC']] });

/** The latest appeal of a ban case, or null. */
const latestAppeal = (services: Services, guildId: string, caseNumber: number) =>
  appeals(services, guildId).findOne({ where: { caseNumber }, order: [['id', 'DESC']] });

const statusOf = (row: ModerationAppeal): AppealStatus => ((APPEAL_STATUSES as readonly string[]).includes(row.status) ? (row.status as AppealStatus) : 'open');

/**
 * Why the member cannot appeal this ban now, or null when they can: appeals turned off, the ban
 * lifted, an appeal still open, an accepted one, or a denial less than APPEAL_RETRY_MS ago (with
 * the days left). One rule for the page (which hides the form) and the submission (which refuses).
 */
export function appealBlock(
  state: { appealsEnabled: boolean; banLifted: boolean; latest: { status: string; decidedAt: Date | null } | null },
  now: number,
): { message: string; retryAfterMs?: number } | null {
  const { latest } = state;
  if (latest?.status === 'open') return { message: APPEAL_MESSAGES.alreadyOpen };
  if (latest?.status === 'accepted' || state.banLifted) return { message: latest?.status === 'accepted' ? APPEAL_MESSAGES.accepted : APPEAL_MESSAGES.lifted };
  if (!state.appealsEnabled) return { message: APPEAL_MESSAGES.disabled };
  if (latest?.status === 'denied') {
    const waitMs = (latest.decidedAt?.getTime() ?? now) + APPEAL_RETRY_MS - now;
    if (waitMs > 0) return { message: APPEAL_MESSAGES.tooSoon(Math.ceil(waitMs / 86_400_000)), retryAfterMs: waitMs };
  }
  return null;
}

/** The ban the viewer may see: only the banned member themselves (Forbidden otherwise), in a server the bot is in. */
async function ownBan(services: Services, guildId: string, viewerId: string, userId: string): Promise<{ guild: Guild; ban: ModerationLog }> {
  if (viewerId !== userId) throw new Forbidden(APPEAL_MESSAGES.notYours);
  const guild = liveGuild(services, guildId);
  const ban = await latestBan(services, guildId, userId);
  if (!ban) throw new NotFound(APPEAL_MESSAGES.noBan);
  return { guild, ban };
}

/** What the banned member's appeal page shows: the server, the ban, the latest appeal, and whether they may appeal now. */
export async function memberAppealView(services: Services, guildId: string, viewerId: string, userId: string): Promise<MemberAppealView> {
  const { guild, ban } = await ownBan(services, guildId, viewerId, userId);
  const [settings, latest] = await Promise.all([services.settings.get(guildId), latestAppeal(services, guildId, ban.caseNumber)]);
  const block = appealBlock({ appealsEnabled: settings.appealsEnabled, banLifted: ban.liftedAt !== null, latest }, services.clock.ms());
  return {
    guildId,
    guildName: guild.name,
    guildIconUrl: guild.iconURL({ size: 128 }),
    caseNumber: ban.caseNumber,
    reason: ban.reason,
    bannedAt: ban.createdAt.toISOString(),
    intro: settings.appealIntro,
    appeal: latest
      ? {
          id: latest.id,
          status: statusOf(latest),
          text: latest.text,
          createdAt: latest.createdAt.toISOString(),
          decidedAt: latest.decidedAt?.toISOString() ?? null,
          decisionReason: latest.decisionReason,
        }
      : null,
    canAppeal: block === null,
    notice: block?.message ?? null,
  };
}

/**
 * Stores the member's appeal of their ban in force and alerts the moderators in the log channel.
 * Refused (nothing stored) when the viewer is not the banned member, the server takes no appeals,
 * the ban was lifted, an appeal is open (also under a race: the partial unique index has the last
 * word) or a denial is too recent.
 */
export async function submitAppeal(
  services: Services,
  guildId: string,
  author: { userId: string; name: string },
  userId: string,
  text: string,
): Promise<Appeal> {
  const { ban } = await ownBan(services, guildId, author.userId, userId);
  const [settings, latest] = await Promise.all([services.settings.get(guildId), latestAppeal(services, guildId, ban.caseNumber)]);
  const block = appealBlock({ appealsEnabled: settings.appealsEnabled, banLifted: ban.liftedAt !== null, latest }, services.clock.ms());
  if (block?.retryAfterMs) throw new RateLimited(Math.ceil(block.retryAfterMs / 1000), block.message);
  if (block) throw block.message === APPEAL_MESSAGES.disabled ? new Forbidden(block.message) : new Conflict(block.message);
  let row: ModerationAppeal;
  try {
    row = await appeals(services, guildId).create({
      caseNumber: ban.caseNumber,
      userId,
      userName: author.name.slice(0, 100),
      text,
      status: 'open',
      decidedById: null,
      decidedByName: null,
      decisionReason: null,
      unbanCaseNumber: null,
      dmDelivered: null,
      createdAt: services.clock.now(),
      decidedAt: null,
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError) throw new Conflict(APPEAL_MESSAGES.alreadyOpen);
    throw error;
  }
  await services.notifier.notify(guildId, {
    event: 'moderation',
    title: `Appeal #${row.id} · case #${ban.caseNumber}`,
    description: text.length > 1500 ? `${text.slice(0, 1500)}…` : text,
    fields: [
      { name: 'Member', value: `${author.name} (${userId})`, inline: true },
      { name: 'Ban reason', value: (ban.reason ?? 'No reason given.').slice(0, 1000), inline: true },
      { name: 'Decide', value: 'Moderation page → Appeals, or /appeal accept and /appeal deny.' },
    ],
    data: { appealId: row.id, caseNumber: ban.caseNumber, userId },
  });
  return viewAppeal(ban, row);
}

/** An appeal as moderators see it, with its ban case's reason and date. */
export function viewAppeal(ban: ModerationLog | null, row: ModerationAppeal): Appeal {
  return {
    id: row.id,
    caseNumber: row.caseNumber,
    caseReason: ban?.reason ?? null,
    bannedAt: ban?.createdAt.toISOString() ?? null,
    banInForce: ban !== null && ban.liftedAt === null,
    userId: row.userId,
    userName: row.userName,
    text: row.text,
    status: statusOf(row),
    decidedById: row.decidedById,
    decidedByName: row.decidedByName,
    decisionReason: row.decisionReason,
    unbanCaseNumber: row.unbanCaseNumber,
    dmDelivered: row.dmDelivered,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

/** Appeals with their cases read in one query. */
async function viewAppeals(services: Services, guildId: string, rows: ModerationAppeal[]): Promise<Appeal[]> {
  const numbers = [...new Set(rows.map((row) => row.caseNumber))];
  const bans = numbers.length ? await cases(services, guildId).findAll({ where: { caseNumber: numbers } }) : [];
  const byNumber = new Map(bans.map((ban) => [ban.caseNumber, ban]));
  return rows.map((row) => viewAppeal(byNumber.get(row.caseNumber) ?? null, row));
}

/** The appeals list: newest first, by status, paged. */
export async function listAppeals(services: Services, guildId: string, query: { status: string; page: number; pageSize: number }): Promise<AppealsPage> {
  const where = query.status === 'all' ? {} : { status: query.status };
  const [rows, total] = await Promise.all([
    appeals(services, guildId).findAll({ where, order: [['id', 'DESC']], limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
    appeals(services, guildId).count({ where }),
  ]);
  return { entries: await viewAppeals(services, guildId, rows), page: query.page, pageSize: query.pageSize, total };
}

/**
 * Deciding an appeal is a ban decision: the moderator needs Ban Members in Discord (the owner
 * always may). The dashboard's access alone (Manage Server, a delegated grant) is not enough.
 */
async function requireBanMembers(guild: Guild, actor: Actor): Promise<void> {
  if (actor.userId === guild.ownerId) return;
  const member = await memberOf(guild, actor.userId);
  if (!member?.permissions.has(PermissionFlagsBits.BanMembers)) throw new Forbidden(APPEAL_MESSAGES.needsBanMembers);
}

/** An open appeal of this guild, or what became of it. */
async function openAppeal(services: Services, guildId: string, id: number): Promise<ModerationAppeal> {
  const row = await appeals(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound(APPEAL_MESSAGES.noSuchAppeal);
  if (row.status !== 'open') throw new Conflict(APPEAL_MESSAGES.notOpen(row.status));
  return row;
}

/** Records the decision once: a concurrent decision of the same appeal gets a Conflict. */
async function settle(services: Services, guildId: string, id: number, values: Partial<ModerationAppeal>): Promise<ModerationAppeal> {
  const count = await appeals(services, guildId).update({ ...values, decidedAt: services.clock.now() }, { where: { id, status: 'open' } });
  if (count === 0) throw new Conflict('That appeal was decided by someone else just now.');
  const row = await appeals(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound(APPEAL_MESSAGES.noSuchAppeal);
  return row;
}

/** Tells the member the decision by DM; true when it arrived (they may share no server with the bot any more). */
async function tellDecision(services: Services, guild: Guild, row: ModerationAppeal, accepted: boolean, reason: string | null): Promise<boolean> {
  const title = accepted ? `Your ban appeal in ${guild.name} was accepted` : `Your ban appeal in ${guild.name} was denied`;
  const description = [
    accepted ? 'Your ban was lifted: you can join the server again with an invite.' : 'Your ban stays in place.',
    reason ? `Reason: ${reason}` : null,
    `Details: ${appealUrl(services, guild.id, row.userId)}`,
  ]
    .filter(Boolean)
    .join('\n');
  try {
    const outcome = await services.messenger.dm(guild.id, row.userId, { embeds: [{ title, description, color: accepted ? 0x2ecc71 : 0x95a5a6 }] });
    return outcome === 'sent';
  } catch (error) {
    services.logger.warn({ err: error, guildId: guild.id, userId: row.userId }, 'could not DM the member about their appeal');
    return false;
  }
}

/** The unban case's reason: it names the appeal and its case (kept whole; a long reason is cut to fit Discord's 512 characters). */
export function acceptedReason(row: { id: number; caseNumber: number }, reason: string | null | undefined): string {
  const prefix = 'Appeal accepted: ';
  const suffix = ` (appeal #${row.id} of case #${row.caseNumber})`;
  return `${prefix}${(reason ?? 'no reason given').slice(0, MAX_REASON_LENGTH - prefix.length - suffix.length)}${suffix}`;
}

/** Accepts an appeal: lifts the ban through `moderate` (an unban case naming the appeal), records the decision, tells the member. */
export async function acceptAppeal(services: Services, guildId: string, id: number, reason: string | null | undefined, actor: Actor): Promise<Appeal> {
  const guild = liveGuild(services, guildId);
  await requireBanMembers(guild, actor);
  const row = await openAppeal(services, guildId, id);
  const ban = await cases(services, guildId).findOne({ where: { caseNumber: row.caseNumber } });
  if (ban?.liftedAt) throw new Conflict(APPEAL_MESSAGES.liftedMeanwhile);
  // Decided first, so a concurrent accept or deny of the same appeal is refused before the ban is
  // touched; reopened when Discord refuses the unban, so the moderators can decide again.
  const decided = await settle(services, guildId, id, {
    status: 'accepted',
    decidedById: actor.userId,
    decidedByName: actor.name.slice(0, 100),
    decisionReason: reason ?? null,
  });
  let unban: ModerationCase;
  try {
    unban = await moderate(services, guildId, { action: 'unban', targetId: row.userId, reason: acceptedReason(row, reason) }, actor);
  } catch (error) {
    const reopened = { status: 'open', decidedById: null, decidedByName: null, decisionReason: null, decidedAt: null };
    await appeals(services, guildId).update(reopened, { where: { id, status: 'accepted', unbanCaseNumber: null } });
    // Discord says the member is not banned (lifted where the bot did not see who): the case learns it.
    if (error instanceof InvalidInput && 'targetId' in error.fields) {
      await liftBans(services, guildId, row.userId);
      throw new Conflict(APPEAL_MESSAGES.liftedMeanwhile);
    }
    throw error;
  }
  await appeals(services, guildId).update({ unbanCaseNumber: unban.caseNumber }, { where: { id } });
  decided.unbanCaseNumber = unban.caseNumber;
  if (ban) ban.liftedAt = services.clock.now();
  return told(services, guild, ban, decided, true);
}

/** Denies an appeal with a reason (the member is told it); the ban stays. */
export async function denyAppeal(services: Services, guildId: string, id: number, reason: string, actor: Actor): Promise<Appeal> {
  const guild = liveGuild(services, guildId);
  await requireBanMembers(guild, actor);
  const row = await openAppeal(services, guildId, id);
  const ban = await cases(services, guildId).findOne({ where: { caseNumber: row.caseNumber } });
  const decided = await settle(services, guildId, id, {
    status: 'denied',
    decidedById: actor.userId,
    decidedByName: actor.name.slice(0, 100),
    decisionReason: reason,
  });
  return told(services, guild, ban, decided, false);
}

/** DMs the decision and records whether it arrived. */
async function told(services: Services, guild: Guild, ban: ModerationLog | null, row: ModerationAppeal, accepted: boolean): Promise<Appeal> {
  const dmDelivered = await tellDecision(services, guild, row, accepted, row.decisionReason);
  await appeals(services, guild.id).update({ dmDelivered }, { where: { id: row.id } });
  row.dmDelivered = dmDelivered;
  return viewAppeal(ban, row);
}
