import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import { DomainError } from '../core/errors';
import type { Services } from '../core/services';
import type { Command, CommandReply, CommandUser } from './command';
import { COMMAND_FAILED_MESSAGE, reportFailure, runCommand } from './dispatch';
import { slashOptions } from './slash';

/** Past this, the first answer is a deferral ("thinking…"), well inside Discord's 3-second limit. */
const DEFER_AFTER_MS = 2000;

/**
 * Routes slash commands to their command. A domain error (a rule the member or the server broke,
 * or Discord refusing) is answered with its own sentence, ephemerally; any other failure is a
 * bug: it is logged and the member gets "Something went wrong". A slow command is deferred first.
 */
export function createInteractionDispatcher(commands: readonly Command[], services: Services): (interaction: Interaction) => Promise<void> {
  const byName = new Map(commands.map((command) => [command.name, command]));
  return async (interaction) => {
    if (interaction.isAutocomplete()) return autocomplete(interaction, byName, services);
    if (interaction.isButton()) return button(interaction, byName, services);
    if (!interaction.isChatInputCommand()) return;
    const command = byName.get(interaction.commandName);
    if (!command) {
      services.logger.warn({ command: interaction.commandName }, 'interaction for an unknown command');
      return;
    }
    if (!interaction.inCachedGuild()) {
      await interaction.reply({ content: 'Use this command in a server.', flags: MessageFlags.Ephemeral }).catch(() => undefined);
      return;
    }
    await runSlash(command, interaction, services);
  };
}

async function runSlash(command: Command, interaction: ChatInputCommandInteraction<'cached'>, services: Services): Promise<void> {
  const ephemeral = command.ephemeral ?? false;
  let deferral: Promise<unknown> | null = null;
  const timer = setTimeout(() => {
    deferral = interaction.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {}).catch(() => undefined);
  }, DEFER_AFTER_MS);
  const send = async (reply: CommandReply, asError: boolean) => {
    clearTimeout(timer);
    if (deferral) await deferral;
    const payload = await services.messenger.prepare(interaction.guildId, reply);
    const privately = asError || (reply.ephemeral ?? ephemeral);
    if (interaction.deferred || interaction.replied) await interaction.editReply(payload);
    else await interaction.reply({ ...payload, ...(privately ? { flags: MessageFlags.Ephemeral } : {}) });
  };
  const user: CommandUser = {
    id: interaction.user.id,
    username: interaction.user.username,
    displayName: interaction.member.displayName,
    bot: interaction.user.bot,
  };
  try {
    const reply = await runCommand(command, {
      services,
      guildId: interaction.guildId,
      channelId: interaction.channelId,
      user,
      member: interaction.member,
      options: slashOptions(command, interaction),
      source: 'slash',
      prefix: '/',
    });
    await send(reply, false);
  } catch (error) {
    const expected = error instanceof DomainError;
    reportFailure(services, interaction.guildId, command.name, error);
    if (!expected) services.logger.error({ err: error, command: command.name, guildId: interaction.guildId }, 'command failed');
    await send({ content: expected ? error.message : COMMAND_FAILED_MESSAGE, ephemeral: true }, true).catch((replyError: unknown) =>
      services.logger.warn({ err: replyError }, 'could not send the failure reply'),
    );
  } finally {
    clearTimeout(timer);
    services.activity.command(interaction.guildId, command.name);
  }
}

async function autocomplete(interaction: import('discord.js').AutocompleteInteraction, byName: Map<string, Command>, services: Services): Promise<void> {
  const command = byName.get(interaction.commandName);
  const focused = interaction.options.getFocused(true);
  const option = command?.options?.find((candidate) => candidate.name === focused.name);
  if (!command || !option || option.type !== 'string' || !option.autocomplete || !interaction.inCachedGuild()) {
    await interaction.respond([]).catch(() => undefined);
    return;
  }
  try {
    const choices = await option.autocomplete(
      {
        services,
        guildId: interaction.guildId,
        channelId: interaction.channelId,
        user: { id: interaction.user.id, username: interaction.user.username, displayName: interaction.member.displayName, bot: interaction.user.bot },
        member: interaction.member,
        source: 'slash',
        prefix: '/',
      },
      String(focused.value),
    );
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
    const reply = await command.button(
      {
        services,
        guildId: interaction.guildId,
        channelId: interaction.channelId,
        user: { id: interaction.user.id, username: interaction.user.username, displayName: interaction.member.displayName, bot: interaction.user.bot },
        member: interaction.member,
      },
      args,
    );
    await interaction.update(await services.messenger.prepare(interaction.guildId, reply));
  } catch (error) {
    const expected = error instanceof DomainError;
    if (!expected) services.logger.error({ err: error, command: name }, 'button failed');
    await interaction.reply({ content: expected ? error.message : COMMAND_FAILED_MESSAGE, flags: MessageFlags.Ephemeral }).catch(() => undefined);
  }
}
