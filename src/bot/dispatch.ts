import { PermissionsBitField } from 'discord.js';
import { DiscordRefused, FeatureDisabled, Forbidden, RateLimited } from '../core/errors';
import type { Services } from '../core/services';
import { FEATURE_SWITCHES } from '../shared/bot-settings';
import type { Command, CommandReply, Invocation } from './command';
import { validateOptions } from './options';

/** The one reply a member sees when a command fails unexpectedly (a bug, not a rule). */
export const COMMAND_FAILED_MESSAGE = 'Something went wrong while running that command. Please try again.';

/** The name of the first permission in a bitfield, for "You need the Ban Members permission". */
function permissionName(bits: bigint): string {
  const [name = 'required'] = new PermissionsBitField(bits).toArray();
  return name.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/**
 * Runs a command for a slash or a text invocation, with the rules both share: the command's
 * feature must be on in Bot Settings, the member within the guild's rate limit and holding the
 * command's permission, the options valid. Returns the reply; rules broken throw domain errors
 * (answered to the member in words by the caller).
 */
export async function runCommand(command: Command, invocation: Invocation): Promise<CommandReply> {
  const { services, guildId, user } = invocation;
  const settings = await services.settings.get(guildId);
  if (command.feature) {
    const feature = FEATURE_SWITCHES[command.feature];
    if (!settings[feature.setting]) throw new FeatureDisabled(feature.off);
  }
  const wait = services.commandLimiter.take(guildId, user.id, settings.rateLimitPerMinute);
  if (wait > 0) throw new RateLimited(wait, `You're using commands too quickly. Try again in ${wait} s.`);
  if (command.permission !== undefined && !invocation.member.permissions.has(command.permission)) {
    throw new Forbidden(`You need the ${permissionName(command.permission)} permission to use ${invocation.prefix}${command.name}.`);
  }
  validateOptions(command, invocation.options, invocation.prefix);
  const reply = await command.run(invocation);
  return typeof reply === 'string' ? { content: reply } : reply;
}

/**
 * A command Discord refused is something the moderators can fix (a missing permission, a role
 * order): besides the member's reply, it goes to the log channel as an error notification.
 */
export function reportFailure(services: Services, guildId: string, commandName: string, error: unknown): void {
  if (!(error instanceof DiscordRefused)) return;
  void services.notifier.notify(guildId, {
    event: 'error',
    title: `/${commandName} could not finish`,
    description: error.message,
    data: { command: commandName, discordCode: error.code },
  });
}
