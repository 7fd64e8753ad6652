// Timeouts longer than Discord's 28 days (issue 24, point 3; Zeppelin does the same). Discord times
// a member out for at most 28 days, so a longer timeout is applied for 28 days and renewed by the
// bot before Discord's runs out, until the case's expiry. Everything is read from the case row and
// from Discord on every pass (the expiry may be changed after the fact), so it survives restarts:
// the first pass after a start re-applies a timeout Discord let run out while the bot was down.
// Several processes on one store renew once: each row is claimed with a lease (as temporary bans
// are), and the lease then holds the row until its next check is due.
import { RESTJSONErrorCodes, type Guild, type GuildMember } from 'discord.js';
import { Op } from 'sequelize';
import { askDiscord } from '../../bot/discord-errors';
import { DiscordRefused } from '../../core/errors';
import type { KeyedQueue } from '../../core/keyed-queue';
import type { Services } from '../../core/services';
import { acrossGuilds } from '../../db/cross-guild';
import type { ModerationLog } from '../../db/models/community';
import { MAX_REASON_LENGTH } from '../../shared/moderation';
import { discordTimeoutEnd } from './case-duration';
import { cases } from './cases';
import { botActor } from './standing';

/** Discord's timeout is renewed when less than this (a day) of it is left: a day of slack for a bot that is down or refused. */
export const RENEW_BEFORE_MS = 86_400_000;
/** A timeout Discord holds is looked at again at most this often (an hour), in case its expiry was changed. */
export const RECHECK_MS = 3_600_000;
/** Discord's timeout ending this close (a minute) before the case's expiry covers it (the two are taken a moment apart). */
export const COVERED_SLACK_MS = 60_000;
/** How long a process holds a timeout it is renewing. */
export const RENEW_CLAIM_MS = 60_000;
/** Rows looked at per pass. */
const BATCH = 20;

/** What to do about one timeout now. */
export type RenewalPlan =
  | { kind: 'ended' }
  /** Time the member out until `until` (Discord's end; at most 28 days ahead) and look again at `nextCheck`. */
  | { kind: 'renew'; until: number; nextCheck: number }
  /** Discord's timeout holds for now: look again at `nextCheck`. */
  | { kind: 'wait'; nextCheck: number };

const nextCheck = (now: number, discordEnd: number) => Math.max(now + RECHECK_MS, discordEnd - RENEW_BEFORE_MS);

/**
 * The renewal rule: a timeout whose case has expired has ended; one whose Discord timeout covers the
 * expiry, or has more than a day left, waits; otherwise (less than a day left, or Discord's ran out)
 * Discord's is set to the expiry or 28 days, whichever is sooner. `discordUntil` is the member's
 * communication_disabled_until (null or past when not timed out).
 */
export function planRenewal(now: number, expiresAt: number, discordUntil: number | null): RenewalPlan {
  if (expiresAt <= now) return { kind: 'ended' };
  const current = discordUntil !== null && discordUntil > now ? discordUntil : now;
  if (current >= expiresAt - COVERED_SLACK_MS || current - now > RENEW_BEFORE_MS) return { kind: 'wait', nextCheck: nextCheck(now, current) };
  const until = discordTimeoutEnd(now, expiresAt);
  return { kind: 'renew', until, nextCheck: nextCheck(now, until) };
}

/** A timeout case still running: not lifted, not expired. */
const running = (now: Date) => ({ action: 'timeout', liftedAt: null, expiresAt: { [Op.gt]: now } });
const unclaimed = (now: Date) => ({ [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: now } }] });

/** Marks a member's running timeouts lifted (a moderator lifted it, in Discord or through the bot): the bot stops renewing them. */
export async function liftTimeouts(services: Services, guildId: string, targetId: string): Promise<void> {
  await cases(services, guildId).update({ liftedAt: services.clock.now() }, { where: { targetId, action: 'timeout', liftedAt: null } });
}

/** Whether the member is timed out: in Discord, or by a running timeout case (a long one Discord let lapse). */
export async function isTimedOut(services: Services, member: GuildMember): Promise<boolean> {
  if ((member.communicationDisabledUntilTimestamp ?? 0) > services.clock.ms()) return true;
  return (await cases(services, member.guild.id).count({ where: { targetId: member.id, ...running(services.clock.now()) } })) > 0;
}

/**
 * A later timeout or lifted timeout of the same member replaces this one: it is marked lifted when
 * the later one was made, and not renewed. True when it was.
 */
async function supersede(services: Services, row: ModerationLog): Promise<boolean> {
  const later = await cases(services, row.guildId).findOne({
    where: { targetId: row.targetId, action: ['timeout', 'untimeout'], caseNumber: { [Op.gt]: row.caseNumber } },
    order: [['caseNumber', 'ASC']],
  });
  if (!later) return false;
  await cases(services, row.guildId).update({ liftedAt: later.createdAt, claimedUntil: null }, { where: { id: row.id, liftedAt: null } });
  return true;
}

/** The member's timeout end as Discord holds it (ms), null when not timed out, or 'gone' when they left. Fresh from Discord when `force`. */
async function discordUntilOf(guild: Guild, userId: string, force: boolean): Promise<{ member: GuildMember; until: number | null } | 'gone'> {
  const cached = force ? undefined : guild.members.cache.get(userId);
  try {
    const member = cached ?? (await askDiscord(() => guild.members.fetch({ user: userId, force: true }), guild.members.me?.displayName ?? 'The bot'));
    return { member, until: member.communicationDisabledUntilTimestamp };
  } catch (error) {
    if (error instanceof DiscordRefused && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser)) return 'gone';
    throw error;
  }
}

/** Sets the member's timeout in Discord, as the bot, with the case in the audit log's reason. */
async function applyTimeout(services: Services, member: GuildMember, row: ModerationLog, until: number): Promise<void> {
  const actor = botActor(services, row.guildId);
  const reason = `Timeout renewed: case #${row.caseNumber} runs until ${new Date(row.expiresAt?.getTime() ?? until).toISOString()}`;
  await askDiscord(() => member.disableCommunicationUntil(until, reason.slice(0, MAX_REASON_LENGTH)), actor.name);
}

/**
 * One timeout, claimed: re-read from the store (its expiry may have changed), then from Discord.
 * Returns when to look again, or null when the timeout is over.
 */
async function renewOne(services: Services, guild: Guild, id: number): Promise<Date | null> {
  const row = await cases(services, guild.id).findOne({ where: { id } });
  if (!row?.expiresAt || row.liftedAt || row.action !== 'timeout') return null;
  if (await supersede(services, row)) return null;
  const now = services.clock.ms();
  const expiresAt = row.expiresAt.getTime();
  let seen = await discordUntilOf(guild, row.targetId, false);
  // Gone: renewed when they come back (the join listener), looked at again later all the same.
  if (seen === 'gone') return new Date(now + RECHECK_MS);
  let plan = planRenewal(now, expiresAt, seen.until);
  if (plan.kind === 'ended') return null;
  if (plan.kind === 'wait') return new Date(plan.nextCheck);
  // About to act: the cache may be behind Discord, so ask Discord.
  seen = await discordUntilOf(guild, row.targetId, true);
  if (seen === 'gone') return new Date(now + RECHECK_MS);
  // Lifted (not run out: Discord leaves a past time there) since the member joined before the case:
  // a moderator lifted it while the bot was not watching. A member who rejoined has it re-applied.
  if (seen.until === null && (seen.member.joinedTimestamp ?? 0) <= row.createdAt.getTime()) {
    await liftTimeouts(services, guild.id, row.targetId);
    return null;
  }
  plan = planRenewal(now, expiresAt, seen.until);
  if (plan.kind !== 'renew') return plan.kind === 'ended' ? null : new Date(plan.nextCheck);
  await applyTimeout(services, seen.member, row, plan.until);
  return new Date(plan.nextCheck);
}

/** Claims a due timeout for this process: one conditional update, so one process wins. */
async function claim(services: Services, row: ModerationLog): Promise<boolean> {
  const now = services.clock.now();
  const count = await cases(services, row.guildId).update(
    { claimedUntil: new Date(now.getTime() + RENEW_CLAIM_MS) },
    { where: { id: row.id, liftedAt: null, ...unclaimed(now) } },
  );
  return count === 1;
}

/** Up to this many guilds, the due rows are asked for in the process's guilds only (so rows of guilds the bot left never fill a batch). */
const GUILD_FILTER_MAX = 1000;

/**
 * Renews the timeouts that are due a look (in guilds the bot is in), each one after the member's
 * other timeout changes in this process (`changes`, keyed guild:user); returns how many were looked at.
 */
export async function renewLongTimeouts(services: Services, changes: KeyedQueue): Promise<number> {
  const now = services.clock.now();
  const guildIds = [...(services.gateway.client?.guilds.cache.keys() ?? [])];
  if (guildIds.length === 0) return 0;
  const due = await acrossGuilds(services.store, 'due timeout renewals').ModerationLog.findAll({
    where: { ...running(now), ...unclaimed(now), ...(guildIds.length <= GUILD_FILTER_MAX ? { guildId: guildIds } : {}) },
    order: [['claimedUntil', 'ASC']],
    limit: BATCH,
  });
  let looked = 0;
  for (const row of due) {
    const guild = services.gateway.client?.guilds.cache.get(row.guildId);
    if (!guild || !(await claim(services, row))) continue;
    looked += 1;
    let next: Date | null;
    try {
      next = await changes.run(`${row.guildId}:${row.targetId}`, () => renewOne(services, guild, row.id));
    } catch (error) {
      // Discord refusing (the bot lost Timeout Members, or its rank) is retried hourly, not every minute; Discord failing, in a minute.
      const refused = error instanceof DiscordRefused && error.code !== 0;
      services.logger.warn({ err: error, guildId: row.guildId, caseNumber: row.caseNumber }, 'could not renew a long timeout; it will be retried');
      next = new Date(services.clock.ms() + (refused ? RECHECK_MS : RENEW_CLAIM_MS));
    }
    await cases(services, row.guildId).update({ claimedUntil: next }, { where: { id: row.id } });
  }
  return looked;
}

/**
 * A member who comes back while a timeout of theirs is running has it applied again (Discord's
 * end: the expiry or 28 days), as Zeppelin re-applies a mute.
 */
export async function reapplyTimeoutOnJoin(services: Services, member: GuildMember): Promise<void> {
  const now = services.clock.now();
  const row = await cases(services, member.guild.id).findOne({ where: { targetId: member.id, ...running(now) }, order: [['caseNumber', 'DESC']] });
  if (!row?.expiresAt || (await supersede(services, row))) return;
  const plan = planRenewal(now.getTime(), row.expiresAt.getTime(), member.communicationDisabledUntilTimestamp);
  if (plan.kind !== 'renew') return;
  await applyTimeout(services, member, row, plan.until);
}
