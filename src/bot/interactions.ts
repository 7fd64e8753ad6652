import {
  DiscordAPIError,
  MessageFlags,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type CommandInteraction,
  type Interaction,
  type MessageContextMenuCommandInteraction,
} from 'discord.js';
import type { Services } from '../core/services';
import { subcommandOf, type Command, type CommandReply, type CommandUser, type MessageCommand } from './command';
import { failureText, reportFailure, runCommand, runMessageCommand } from './dispatch';
import { targetMessage } from './message-commands';
import { slashOptions } from './slash';

/** What a member is told when the command ran but Discord refused to show its answer (a defect of the answer, logged). */
export const ANSWER_REFUSED_MESSAGE = 'The command ran, but Discord refused to show its answer. The bot has logged why for its operator.';

/** Past this, the first answer is a deferral ("thinking…"), well inside Discord's 3-second limit. */
const DEFER_AFTER_MS = 2000;

/**
 * Routes slash commands and message commands to their command. A domain error (a rule the member
 * or the server broke, or Discord refusing) is answered with its own sentence, ephemerally; any
 * other failure is a bug: it is logged and the member gets "Something went wrong". A slow command
 * is deferred first.
 */
export function createInteractionDispatcher(
  commands: readonly Command[],
  services: Services,
  messageCommands: readonly MessageCommand[] = [],
): (interaction: Interaction) => Promise<void> {
  const byName = new Map(commands.map((command) => [command.name, command]));
  const messageByName = new Map(messageCommands.map((command) => [command.name, command]));
  return async (interaction) => {
    if (interaction.isAutocomplete()) return autocomplete(interaction, byName, services);
    if (interaction.isButton()) return button(interaction, byName, services);
    if (interaction.isChatInputCommand()) {
      const named = byName.get(interaction.commandName);
      const sub = interaction.options.getSubcommand(false);
      const command = named && sub ? subcommandOf(named, sub) : named;
      if (!command) return unknownCommand(interaction, services);
      if (!interaction.inCachedGuild()) return outsideServer(interaction);
      return runSlash(command, interaction, services);
    }
    if (interaction.isMessageContextMenuCommand()) {
      const command = messageByName.get(interaction.commandName);
      if (!command) return unknownCommand(interaction, services);
      if (!interaction.inCachedGuild()) return outsideServer(interaction);
      return runMessage(command, interaction, services);
    }
  };
}

/** A command Discord still lists but the bot no longer has (registration lags a deploy). */
function unknownCommand(interaction: CommandInteraction, services: Services): void {
  services.logger.warn({ command: interaction.commandName }, 'interaction for an unknown command');
}

/** Commands run only in servers. */
async function outsideServer(interaction: CommandInteraction): Promise<void> {
  await interaction.reply({ content: 'Use this command in a server.', flags: MessageFlags.Ephemeral }).catch(() => undefined);
}

/** Who invoked where: the parts of an invocation every interaction of a member in a server gives. */
function invokedBy(interaction: CommandInteraction<'cached'> | ButtonInteraction<'cached'> | AutocompleteInteraction<'cached'>, services: Services) {
  const { user, member } = interaction;
  const invoker: CommandUser = { id: user.id, username: user.username, displayName: member.displayName, bot: user.bot };
  return { services, guildId: interaction.guildId, channelId: interaction.channelId, user: invoker, member };
}

function runSlash(command: Command, interaction: ChatInputCommandInteraction<'cached'>, services: Services): Promise<void> {
  const run = () => runCommand(command, { ...invokedBy(interaction, services), options: slashOptions(command, interaction), source: 'slash', prefix: '/' });
  return answerCommand(interaction, command, `/${command.name}`, services, run);
}

function runMessage(command: MessageCommand, interaction: MessageContextMenuCommandInteraction<'cached'>, services: Services): Promise<void> {
  const run = () => runMessageCommand(command, { ...invokedBy(interaction, services), target: targetMessage(interaction, services) });
  return answerCommand(interaction, command, command.name, services, run);
}

/**
 * Answers a command interaction with what `run` gives: publicly or ephemerally as the command
 * says, deferred first when it is slow; a failure as described on createInteractionDispatcher.
 * `label` is how the member invoked it ('/rank', 'Report message').
 */
async function answerCommand(
  interaction: CommandInteraction<'cached'>,
  command: Pick<Command, 'name' | 'ephemeral' | 'deferAfterMs'>,
  label: string,
  services: Services,
  run: () => Promise<CommandReply>,
): Promise<void> {
  const ephemeral = command.ephemeral ?? false;
  let deferral: Promise<unknown> | null = null;
  const timer = setTimeout(() => {
    deferral = interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}).catch(() => undefined);
  }, command.deferAfterMs ?? DEFER_AFTER_MS);
  /** Set once a first response was sent: Discord counts it even when it refuses it, and a second is 40060. */
  let responded = false;
  const send = async (reply: CommandReply, asError: boolean) => {
    clearTimeout(timer);
    if (deferral) await deferral;
    const payload = await services.messenger.prepare(interaction.guildId, reply);
    const privately = asError || (reply.ephemeral ?? ephemeral);
    if (interaction.deferred || interaction.replied) await interaction.editReply(payload);
    else if (responded) {
      // The first response was refused but spent the interaction: what is left is a follow-up,
      // through the interaction's webhook (discord.js's followUp waits for a reply it never saw).
      await interaction.webhook.send({ ...payload, ...(privately ? { flags: MessageFlags.Ephemeral } : {}) });
    } else {
      responded = true;
      await interaction.reply({ ...payload, ...(privately ? { flags: MessageFlags.Ephemeral } : {}) });
    }
  };
  const sendFailure = (content: string) =>
    send({ content, ephemeral: true }, true).catch((replyError: unknown) => services.logger.warn({ err: replyError }, 'could not send the failure reply'));
  try {
    let reply: CommandReply;
    try {
      reply = await run();
    } catch (error) {
      reportFailure(services, interaction.guildId, command.name, error, label);
      await sendFailure(failureText(services, error, { command: command.name, guildId: interaction.guildId }));
      return;
    }
    try {
      await send(reply, false);
    } catch (error) {
      // The command ran: saying it failed would invite the member to run it twice.
      if (!(error instanceof DiscordAPIError) || error.status >= 500) {
        await sendFailure(failureText(services, error, { command: command.name, guildId: interaction.guildId }));
        return;
      }
      services.logger.error({ err: error, command: command.name, guildId: interaction.guildId }, 'Discord refused the answer to a command');
      await sendFailure(ANSWER_REFUSED_MESSAGE);
    }
  } finally {
    clearTimeout(timer);
    services.activity.command(interaction.guildId, command.name);
  }
}

async function autocomplete(interaction: AutocompleteInteraction, byName: Map<string, Command>, services: Services): Promise<void> {
  const named = byName.get(interaction.commandName);
  const sub = interaction.options.getSubcommand(false);
  const command = named && sub ? subcommandOf(named, sub) : named;
  const focused = interaction.options.getFocused(true);
  const option = command?.options?.find((candidate) => candidate.name === focused.name);
  if (!command || !option || option.type !== 'string' || !option.autocomplete || !interaction.inCachedGuild()) {
    await interaction.respond([]).catch(() => undefined);
    return;
  }
  try {
    const choices = await option.autocomplete({ ...invokedBy(interaction, services), source: 'slash', prefix: '/' }, String(focused.value));
    await interaction.respond(choices.slice(0, 25));
  } catch (error) {
    services.logger.warn({ err: error, command: command.name }, 'autocomplete failed');
    await interaction.respond([]).catch(() => undefined);
  }
}

/**
 * A click on a command's button (custom id `command:arg:…`): the command's button handler gives
 * the message's new content, and the message is updated in place (response type 7). A rule broken
 * is answered privately, the message left as it was.
 */
async function button(interaction: ButtonInteraction, byName: Map<string, Command>, services: Services): Promise<void> {
  const [name = '', ...args] = interaction.customId.split(':');
  const command = byName.get(name);
  if (!command?.button || !interaction.inCachedGuild()) return;
  try {
    const reply = await command.button(invokedBy(interaction, services), args);
    await interaction.update(await services.messenger.prepare(interaction.guildId, reply));
  } catch (error) {
    const content = failureText(services, error, { command: name, button: interaction.customId });
    await interaction.reply({ content, flags: MessageFlags.Ephemeral }).catch(() => undefined);
  }
}
