// Moderation actions. One function, `moderate`, serves the dashboard, the slash commands, report
// resolutions, the warning ladder and auto moderation: it checks the actor's and the bot's standing
// against the target, DMs the member when the guild wants it, does the action over Discord, and
// only then writes the case (numbered per guild), posts it to the log channel and applies the
// warning ladder.
import { RESTJSONErrorCodes, type Guild, type GuildMember } from 'discord.js';
import { askDiscord } from '../../bot/discord-errors';
import { InvalidInput } from '../../core/errors';
import type { Services } from '../../core/services';
import { DURATION_LABELS, DURATIONS, type Duration, type ModerationAction, type ModerationCase } from '../../shared/moderation';
import type { GuildSettings } from '../../shared/settings';
import { appealInvitation } from './appeal-link';
import { activeWarnings, announceCase, liftBans, recordCase, viewCase } from './cases';
import { discordTimeoutEnd } from './case-duration';
import { isTimedOut, liftTimeouts } from './long-timeouts';
import { botActor, checkStanding, isBanned, liveGuild, memberOf, notAMember, PERMISSION_NAMES, type Actor, auditReason } from './standing';

/** One action to take. */
export interface ActionRequest {
  action: ModerationAction;
  targetId: string;
  reason: string;
  duration?: Duration | undefined;
}

/** Tells the member what is about to happen and why; true when the DM arrived, false when it did not. */
async function tellMember(services: Services, guild: Guild, targetId: string, request: ActionRequest): Promise<boolean> {
  const what = { ban: 'banned from', kick: 'kicked from', timeout: 'timed out in', warn: 'warned in' }[request.action as 'ban' | 'kick' | 'timeout' | 'warn'];
  const length = request.duration ? ` for ${DURATION_LABELS[request.duration]}` : '';
  try {
    // A ban's DM links to the appeal page when the server takes appeals (appeal-link.ts).
    const appeal = request.action === 'ban' ? await appealInvitation(services, guild.id, targetId) : '';
    const outcome = await services.messenger.dm(guild.id, targetId, {
      embeds: [{ title: `You were ${what} ${guild.name}${length}`, description: `Reason: ${request.reason}${appeal}`, color: 0xe74c3c }],
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

/** Does the action over Discord; its refusals become DiscordRefused in words. */
async function act(guild: Guild, request: ActionRequest, target: GuildMember | null, actor: Actor, now: number): Promise<void> {
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
      // On the product's clock; longer than Discord's 28 days, the rest is renewed by long-timeouts.ts.
      await askDiscord(() => target.disableCommunicationUntil(discordTimeoutEnd(now, now + DURATIONS[request.duration ?? '1h']), reason), botName, refusedBy);
      return;
    case 'untimeout':
      if (!target) throw notAMember();
      await askDiscord(() => target.disableCommunicationUntil(null, reason), botName, refusedBy);
      return;
    case 'warn':
    case 'note':
      return;
  }
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
  if (!target && (request.action === 'kick' || request.action === 'timeout' || request.action === 'warn' || request.action === 'untimeout')) throw notAMember();
  if (request.action === 'untimeout' && target && !(await isTimedOut(services, target)))
    throw InvalidInput.field('targetId', 'is not timed out', 'That member is not timed out.');
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
    await act(guild, request, target, actor, services.clock.ms());
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
  if (request.action === 'untimeout') await liftTimeouts(services, guildId, request.targetId);
  await announceCase(services, row);
  if (request.action === 'warn') await escalate(services, guildId, request.targetId, settings);
  return viewCase(services, row);
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
