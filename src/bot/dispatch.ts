import { PermissionsBitField } from 'discord.js';
import { DiscordRefused, FeatureDisabled, Forbidden, RateLimited, StoreUnavailable } from '../core/errors';
import { counted } from '../shared/words';
import type { Services } from '../core/services';
import { expectedError, failureFields } from '../core/store-errors';
import { discordUnavailable } from './discord-errors';
import { FEATURE_SWITCHES } from '../shared/bot-settings';
import type { Command, CommandReply, Invocation, MessageCommand, MessageInvocation } from './command';
import { validateOptions } from './options';

/** The one reply a member sees when a command fails unexpectedly (a bug, not a rule). */
export const COMMAND_FAILED_MESSAGE = 'Something went wrong while running that command. Please try again.';

/**
 * What a member reads when a command, a text command or a button fails: a rule's or the store's
 * trouble in words; anything else is a bug, logged with `context`, and answered
 * COMMAND_FAILED_MESSAGE.
 */
export function failureText(services: Pick<Services, 'logger'>, error: unknown, context: Record<string, unknown>): string {
  const expected = expectedError(error) ?? discordUnavailable(error);
  if (expected instanceof StoreUnavailable) services.logger.warn({ ...context, ...failureFields(expected, error) }, 'the store failed a command');
  else if (!expected) services.logger.error({ ...context, err: error }, 'command failed');
  return expected ? expected.message : COMMAND_FAILED_MESSAGE;
}

/** The name of the first permission in a bitfield, for "You need the Ban Members permission". */
function permissionName(bits: bigint): string {
  const [name = 'required'] = new PermissionsBitField(bits).toArray();
  return name.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** What the shared rules read of a command or a message command. */
type RuledCommand = Pick<Command, 'name' | 'feature' | 'permission'>;

/**
 * The rules every kind of command shares: its feature must be on in Bot Settings, the member
 * within the guild's rate limit and holding its permission. `label` is how the member invoked it
 * ('/rank', '!rank', 'Report message'); rules broken throw domain errors.
 */
async function requireCommandRules(
  command: RuledCommand,
  invocation: Pick<Invocation, 'services' | 'guildId' | 'user' | 'member'>,
  label: string,
): Promise<void> {
  const { services, guildId, user } = invocation;
  const settings = await services.settings.get(guildId);
  if (command.feature) {
    const feature = FEATURE_SWITCHES[command.feature];
    if (!settings[feature.setting]) throw new FeatureDisabled(feature.off);
  }
  const wait = services.commandLimiter.take(guildId, user.id, settings.rateLimitPerMinute);
  if (wait > 0) throw new RateLimited(wait, `You're using commands too quickly. Try again in ${counted(wait, 'second')}.`);
  if (command.permission !== undefined && !invocation.member.permissions.has(command.permission)) {
    throw new Forbidden(`You need the ${permissionName(command.permission)} permission to use ${label}.`);
  }
}

const asReply = (reply: CommandReply | string): CommandReply => (typeof reply === 'string' ? { content: reply } : reply);

/**
 * Runs a command for a slash or a text invocation, with the rules all commands share and valid
 * options. Returns the reply; rules broken throw domain errors (answered to the member in words by
 * the caller).
 */
export async function runCommand(command: Command, invocation: Invocation): Promise<CommandReply> {
  await requireCommandRules(command, invocation, `${invocation.prefix}${command.name}`);
  validateOptions(command, invocation.options, invocation.prefix);
  return asReply(await command.run(invocation));
}

/** Runs a message command (Apps -> name) with the rules all commands share; as runCommand. */
export async function runMessageCommand(command: MessageCommand, invocation: MessageInvocation): Promise<CommandReply> {
  await requireCommandRules(command, invocation, command.name);
  return asReply(await command.run(invocation));
}

/**
 * A command Discord refused is something the moderators can fix (a missing permission, a role
 * order): besides the member's reply, it goes to the log channel as an error notification, titled
 * with how the member invoked the command (`label`, '/rank' by default).
 */
export function reportFailure(services: Services, guildId: string, commandName: string, error: unknown, label = `/${commandName}`): void {
  if (!(error instanceof DiscordRefused)) return;
  void services.notifier.notify(guildId, {
    event: 'error',
    title: `${label} could not finish`,
    description: error.message,
    data: { command: commandName, discordCode: error.code },
  });
}
