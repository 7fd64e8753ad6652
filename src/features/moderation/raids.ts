// Raid mode (issue 24, point 4): turned on by the raid rule (a burst of joins) or by a moderator,
// it raises the server's verification level, pauses invites (Discord's incident actions, renewed
// while it lasts), times out the raid's joiners and alerts the moderators; it falls back by itself
// after the quiet period, putting back the level it replaced (unless a moderator changed it
// meanwhile) and resuming invites, with an "all clear". The same functions serve /raid and the
// dashboard; what the bot does is recorded as cases (timeouts) and in the log channel.
import { PermissionFlagsBits, type Guild, type GuildVerificationLevel } from 'discord.js';
import { askDiscord } from '../../bot/discord-errors';
import { Conflict, DiscordRefused, Forbidden } from '../../core/errors';
import type { Services } from '../../core/services';
import type { RaidState } from '../../db/models/raid';
import {
  LEVEL_NUMBERS,
  INVITE_PAUSE_MS,
  raidActionsLabel,
  raidReason,
  verificationName,
  type RaidResult,
  type RaidRule,
  type RaidStatus,
} from '../../shared/raids';
import { postRaidAlert, timeOutJoiner } from './raid-actions';
import { fallBackDue, inviteRenewalDue, levelToRaise, levelToRestore, type Burst } from './raid-rules';
import { activeRaid, activeRaids, claimEnd, claimRenewal, claimStart, countTimedOut, presentRaid, raidRow, recordDone } from './raid-state';
import { botActor, liveGuild, memberOf, type Actor } from './standing';

const botNameOf = (guild: Guild) => guild.members.me?.displayName ?? 'The bot';
const problemOf = (error: unknown) => (error instanceof DiscordRefused || error instanceof Forbidden ? error.message : 'Discord did not answer.');

/** Raid mode and the rule, as the card and /raid status show them. */
export async function raidStatus(services: Services, guildId: string): Promise<RaidStatus> {
  liveGuild(services, guildId);
  const settings = await services.settings.get(guildId);
  return presentRaid(await raidRow(services, guildId), settings.raidRule);
}

/** Refuses a moderator who could not change the server's verification level or invites in Discord themselves. */
async function requireManageServer(guild: Guild, actor: Actor, doing: string): Promise<void> {
  if (actor.source === 'automatic' || actor.userId === guild.ownerId) return;
  const member = await memberOf(guild, actor.userId);
  if (!member) throw new Forbidden('You are not a member of this server.');
  if (!member.permissions.has(PermissionFlagsBits.ManageGuild)) throw new Forbidden(`You need the Manage Server permission to ${doing}.`);
}

/** The bot needs Manage Server for the verification level and the invite pause; said in words when it lacks it. */
function requireBotManageServer(guild: Guild, doing: string): void {
  if (guild.members.me?.permissions.has(PermissionFlagsBits.ManageGuild)) return;
  throw new DiscordRefused(50013, `${botNameOf(guild)} needs the Manage Server permission to ${doing}. Give it to its role in Server Settings → Roles.`);
}

/** Sets Discord's incident actions: invites paused until `until` (null resumes them); a DM pause set by someone else is kept. */
async function setInvitePause(guild: Guild, until: Date | null): Promise<void> {
  requireBotManageServer(guild, until ? 'pause invites' : 'resume invites');
  const dmsDisabledUntil = guild.incidentsData?.dmsDisabledUntil ?? null;
  await askDiscord(() => guild.setIncidentActions({ invitesDisabledUntil: until, dmsDisabledUntil }), botNameOf(guild));
}

/** What starting raid mode is asked: who, why, and the burst that set it off (none when a moderator starts it). */
export interface StartRequest {
  actor: Actor;
  burst?: Burst;
  reason?: string | null;
}

/** The reason raid mode's actions carry, in words. */
function startReason(rule: RaidRule, request: StartRequest): string {
  if (request.burst) return raidReason(request.burst.userIds.length, rule.seconds);
  return `Raid mode started by ${request.actor.name}${request.reason ? `: ${request.reason}` : ''}`;
}

/**
 * Turns raid mode on and does what the rule asks: raise the verification level (remembering the
 * one it replaced), pause invites, time out the burst's joiners, alert the moderators. Returns null
 * when raid mode was on already (another join or process turned it on first); a moderator is told so.
 */
export async function startRaid(services: Services, guildId: string, request: StartRequest): Promise<RaidResult | null> {
  const guild = liveGuild(services, guildId);
  const manual = request.actor.source !== 'automatic';
  if (manual) await requireManageServer(guild, request.actor, 'start raid mode');
  const rule = (await services.settings.get(guildId)).raidRule;
  const row = await claimStart(services, guildId, {
    trigger: manual ? 'manual' : 'automatic',
    startedById: manual ? request.actor.userId : null,
    startedByName: manual ? request.actor.name : null,
    joinCount: request.burst?.userIds.length ?? 0,
    windowSeconds: request.burst ? rule.seconds : 0,
  });
  if (!row?.startedAt) {
    if (manual) throw new Conflict('Raid mode is already on.');
    return null;
  }
  const startedAt = row.startedAt;
  const reason = startReason(rule, request);
  const problems: string[] = [];
  const done: { previousLevel: number | null; raisedTo: number | null; invitesPausedUntil: Date | null; timedOut: number } = {
    previousLevel: null,
    raisedTo: null,
    invitesPausedUntil: null,
    timedOut: 0,
  };
  if (rule.raiseVerification) {
    const to = levelToRaise(guild.verificationLevel, LEVEL_NUMBERS[rule.verificationLevel]);
    if (to !== null) {
      try {
        requireBotManageServer(guild, 'raise the verification level');
        const previous = guild.verificationLevel;
        await askDiscord(() => guild.setVerificationLevel(to as GuildVerificationLevel, reason), botNameOf(guild));
        Object.assign(done, { previousLevel: previous, raisedTo: to });
      } catch (error) {
        problems.push(`Verification level not raised: ${problemOf(error)}`);
      }
    }
  }
  if (rule.pauseInvites) {
    const until = new Date(services.clock.ms() + INVITE_PAUSE_MS);
    try {
      await setInvitePause(guild, until);
      done.invitesPausedUntil = until;
    } catch (error) {
      problems.push(`Invites not paused: ${problemOf(error)}`);
    }
  }
  if (rule.timeoutJoiners && request.burst) {
    for (const userId of request.burst.userIds) {
      try {
        if (await timeOutJoiner(services, guild, userId, rule.timeoutDuration, reason)) done.timedOut += 1;
      } catch (error) {
        if (problems.every((problem) => !problem.startsWith('Some joiners'))) problems.push(`Some joiners not timed out: ${problemOf(error)}`);
      }
    }
  }
  await recordDone(services, guildId, startedAt, { ...done, problems: problems.length > 0 ? problems.join('\n') : null });
  services.logger.info({ guildId, reason, ...done }, 'raid mode on');
  const status = await raidStatus(services, guildId);
  const what = raidActionsLabel(status);
  await postRaidAlert(services, guildId, rule, {
    title: 'Raid mode on',
    description: `${reason}. Raid mode: ${what}. It falls back after ${rule.quietMinutes} quiet minutes, or with /raid end.`,
    problems,
    ping: true,
  });
  return { message: `Raid mode is on: ${what}.${problems.length > 0 ? ` ${problems.join(' ')}` : ''}`, status };
}

/** A member joined during raid mode: timed out when the rule says so, and counted. */
export async function timeOutDuringRaid(services: Services, guild: Guild, userId: string, rule: RaidRule): Promise<void> {
  if (!rule.timeoutJoiners) return;
  try {
    if (await timeOutJoiner(services, guild, userId, rule.timeoutDuration, 'Raid protection: joined during raid mode'))
      await countTimedOut(services, guild.id, 1);
  } catch (error) {
    services.logger.warn({ err: error, guildId: guild.id, userId }, 'raid mode could not time out a joiner');
  }
}

/** Why raid mode ends: its quiet period passed, or a moderator ended it. */
export type EndRequest = { actor: Actor; reason?: string | null };

/**
 * Ends raid mode (once, across processes): the verification level goes back to what it was unless a
 * moderator changed it meanwhile, invites resume, and an "all clear" goes to the log channel.
 */
export async function endRaid(services: Services, guildId: string, request: EndRequest): Promise<RaidResult | null> {
  const manual = request.actor.source !== 'automatic';
  const guild = liveGuild(services, guildId);
  if (manual) await requireManageServer(guild, request.actor, 'end raid mode');
  const row = await activeRaid(services, guildId);
  if (!row || !(await claimEnd(services, row))) {
    if (manual) throw new Conflict('Raid mode is not on.');
    return null;
  }
  const rule = (await services.settings.get(guildId)).raidRule;
  const reason = manual ? `Raid mode ended by ${request.actor.name}${request.reason ? `: ${request.reason}` : ''}` : 'Raid protection: all quiet';
  const undone: string[] = [];
  const problems: string[] = [];
  const restore = levelToRestore(row, guild.verificationLevel);
  if (restore !== null) {
    try {
      requireBotManageServer(guild, 'restore the verification level');
      await askDiscord(() => guild.setVerificationLevel(restore as GuildVerificationLevel, reason), botNameOf(guild));
      undone.push(`verification back to ${verificationName(restore)}`);
    } catch (error) {
      problems.push(`Verification level not restored: ${problemOf(error)}`);
    }
  } else if (row.raisedTo !== null) {
    undone.push(`verification left at ${verificationName(guild.verificationLevel)}, as a moderator set it`);
  }
  if (row.invitesPausedUntil) {
    try {
      await setInvitePause(guild, null);
      undone.push('invites resumed');
    } catch (error) {
      problems.push(`Invites not resumed: ${problemOf(error)}`);
    }
  }
  const what = undone.length > 0 ? undone.join(', ') : 'nothing to undo in Discord';
  services.logger.info({ guildId, reason }, 'raid mode off');
  await postRaidAlert(services, guildId, rule, { title: 'All clear: raid mode off', description: `${reason}. ${capitalize(what)}.`, problems, ping: false });
  const status = await raidStatus(services, guildId);
  return { message: `Raid mode is off: ${what}.${problems.length > 0 ? ` ${problems.join(' ')}` : ''}`, status };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Renews the invite pause before Discord's 24 hours run out (one process does, by a conditional update). */
async function renewInvitePause(services: Services, guild: Guild, row: RaidState & { invitesPausedUntil: Date }): Promise<void> {
  const to = new Date(services.clock.ms() + INVITE_PAUSE_MS);
  if (!(await claimRenewal(services, row, row.invitesPausedUntil, to))) return;
  try {
    await setInvitePause(guild, to);
  } catch (error) {
    services.logger.warn({ err: error, guildId: guild.id }, 'could not renew the invite pause of raid mode');
  }
}

/** The periodic check: each raid mode past its quiet period falls back; invite pauses near their end are renewed. */
export async function checkRaids(services: Services): Promise<void> {
  const now = services.clock.ms();
  for (const row of await activeRaids(services)) {
    const guild = services.gateway.client?.guilds.cache.get(row.guildId);
    if (!guild || !row.startedAt) continue;
    const rule = (await services.settings.get(row.guildId)).raidRule;
    if (fallBackDue(row.lastBurstAt ?? row.startedAt, rule.quietMinutes, now)) {
      await endRaid(services, row.guildId, { actor: botActor(services, row.guildId) });
    } else if (row.invitesPausedUntil && inviteRenewalDue(row.invitesPausedUntil, now)) {
      await renewInvitePause(services, guild, row as RaidState & { invitesPausedUntil: Date });
    }
  }
}
