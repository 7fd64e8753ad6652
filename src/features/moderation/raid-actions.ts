// What raid protection does to one member and how it tells the moderators: a joiner timed out by
// the bot (checked like any automatic action, recorded as a case with the reason in words, not
// posted one by one: the raid alert sums them up), and the alert in the log channel that pings the
// chosen role and nobody else.
import type { APIEmbed, Guild } from 'discord.js';
import { askDiscord } from '../../bot/discord-errors';
import type { Services } from '../../core/services';
import { DURATIONS, MAX_REASON_LENGTH, type Duration } from '../../shared/moderation';
import type { RaidRule } from '../../shared/raids';
import { discordTimeoutEnd } from './case-duration';
import { recordCase } from './cases';
import { botActor, checkStanding, memberOf } from './standing';

const ALERT_COLOUR = 0xe74c3c;
const CLEAR_COLOUR = 0x2ecc71;

/**
 * Times out a member who joined in or during a raid, as the bot, and records the case. False when
 * there is nobody to time out (left, a bot, timed out already); a refusal (rank, permission) throws.
 */
export async function timeOutJoiner(services: Services, guild: Guild, userId: string, duration: Duration, reason: string): Promise<boolean> {
  const member = guild.members.cache.get(userId) ?? (await memberOf(guild, userId));
  const now = services.clock.ms();
  if (!member || member.user.bot || (member.communicationDisabledUntilTimestamp ?? 0) > now) return false;
  const actor = botActor(services, guild.id);
  await checkStanding(guild, actor, 'timeout', member);
  // On the product's clock, like every timeout; past Discord's 28 days the rest is renewed from the case (long-timeouts.ts).
  const end = now + DURATIONS[duration];
  const said = reason.slice(0, MAX_REASON_LENGTH);
  await askDiscord(() => member.disableCommunicationUntil(discordTimeoutEnd(now, end), said), guild.members.me?.displayName ?? 'The bot');
  await recordCase(services, guild.id, {
    action: 'timeout',
    targetId: member.id,
    targetName: member.displayName,
    moderatorId: actor.userId,
    moderatorName: actor.name,
    reason: said,
    source: 'automatic',
    duration,
    expiresAt: new Date(end),
  });
  return true;
}

/** What an alert says. */
export interface RaidAlert {
  title: string;
  description: string;
  /** What could not be done, in words. */
  problems: string[];
  /** Ping the rule's alert role (raid mode on), or nobody (all clear, flags). */
  ping: boolean;
  fields?: APIEmbed['fields'];
}

/**
 * Posts to the log channel (Bot Settings) when the rule's alert is on: an embed, and the alert role
 * pinged when asked (allowed mentions name that role only). Without a log channel it is only logged.
 */
export async function postRaidAlert(services: Services, guildId: string, rule: RaidRule, alert: RaidAlert): Promise<void> {
  if (!rule.alert) return;
  const { logChannelId } = await services.settings.get(guildId);
  if (!logChannelId) {
    services.logger.warn({ guildId, title: alert.title }, 'raid protection has no log channel to alert');
    return;
  }
  const role = alert.ping ? rule.alertRoleId : null;
  const embed: APIEmbed = {
    title: alert.title,
    description: alert.description,
    color: alert.ping ? ALERT_COLOUR : CLEAR_COLOUR,
    fields: [...(alert.fields ?? []), ...(alert.problems.length > 0 ? [{ name: 'Could not', value: alert.problems.join('\n').slice(0, 1024) }] : [])],
    timestamp: services.clock.now().toISOString(),
  };
  await services.messenger
    .post(guildId, logChannelId, { ...(role ? { content: `<@&${role}> ${alert.title}` } : {}), embeds: [embed], mentionRoleIds: role ? [role] : [] })
    .catch((error: unknown) => services.logger.warn({ err: error, guildId }, 'could not post the raid alert'));
}
