// The checks a save of the level-up messages and XP rules passes against the live guild: the
// fixed channel exists and takes the bot's messages; the rules name this guild's channels and roles.
import { InvalidInput } from '../../core/errors';
import type { Services, SettingsEffect } from '../../core/services';
import { channelProblem, problemText } from '../../core/checks';
import { LEVEL_UP_MISSING_CHANNEL } from '../../shared/level-up-messages';
import type { GuildSettings } from '../../shared/settings';
import type { Diagnostic } from '../../shared/diagnostics';

/** What is wrong with the level-up destination, by field, or nothing. */
export function levelUpDestinationProblems(services: Services, guildId: string, next: GuildSettings): Record<string, string> {
  if (!next.levelUpAnnouncements || next.levelUpDestination !== 'channel') return {};
  if (!next.levelUpChannelId) return { levelUpChannelId: LEVEL_UP_MISSING_CHANNEL };
  const problem = channelProblem(services, guildId, next.levelUpChannelId, ['send']);
  return problem ? { levelUpChannelId: problemText(problem) } : {};
}

/** The XP rules' ids that are not this guild's channels or roles, by field. */
export function xpRuleIdProblems(services: Services, guildId: string, next: GuildSettings): Record<string, string> {
  const fields: Record<string, string> = {};
  const channel = (id: string) => services.gateway.channel(guildId, id) !== null;
  const role = (id: string) => services.gateway.role(guildId, id) !== null;
  if (!next.xpExcludedChannelIds.every(channel)) fields.xpExcludedChannelIds = 'names a channel that is not in this server';
  if (!next.xpChannelMultipliers.every((row) => channel(row.id))) fields.xpChannelMultipliers = 'names a channel that is not in this server';
  if (!next.xpExcludedRoleIds.every(role)) fields.xpExcludedRoleIds = 'names a role that is not in this server';
  if (!next.xpRoleMultipliers.every((row) => role(row.id))) fields.xpRoleMultipliers = 'names a role that is not in this server';
  return fields;
}

/** Leveling's settings effects: the destination and the rules checked when they change. */
export const levelUpSettingsEffects: SettingsEffect[] = [
  {
    keys: ['levelUpAnnouncements', 'levelUpDestination', 'levelUpChannelId'],
    check: (services, guild, next) => {
      const fields = levelUpDestinationProblems(services, guild.id, next);
      if (Object.keys(fields).length > 0) throw new InvalidInput(fields);
    },
  },
  {
    keys: ['xpExcludedChannelIds', 'xpExcludedRoleIds', 'xpChannelMultipliers', 'xpRoleMultipliers'],
    check: (services, guild, next) => {
      const fields = xpRuleIdProblems(services, guild.id, next);
      if (Object.keys(fields).length > 0) throw new InvalidInput(fields);
    },
  },
];

/** The fixed level-up channel the bot can no longer post in (deleted, or a permission taken away since the save). */
export function levelUpDiagnostics(services: Services, guildId: string, settings: GuildSettings): Diagnostic[] {
  if (!settings.levelUpAnnouncements || settings.levelUpDestination !== 'channel' || !settings.levelUpChannelId) return [];
  const problem = channelProblem(services, guildId, settings.levelUpChannelId, ['send']);
  if (!problem) return [];
  return [{ feature: 'leveling', severity: 'error', problem: `Level-up channel: ${problem.problem}`, fix: problem.fix, subject: 'levelUpChannelId' }];
}
