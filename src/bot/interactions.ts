import { MessageFlags, type Interaction } from 'discord.js';
import type { BotCommand, BotServices } from './commands';

/** The one reply a member sees when a command fails unexpectedly. */
export const COMMAND_FAILED_MESSAGE = 'Something went wrong while running that command. Please try again.';

/** Called after a command in a guild ran (successfully or not), for usage stats. */
export type CommandUsedListener = (guildId: string, commandName: string) => void;

/**
 * Routes chat-input interactions to their command. Every failure takes one path: the error is
 * logged and the member gets an ephemeral "Something went wrong" reply (or follow-up).
 */
export function createInteractionDispatcher(
  commands: readonly BotCommand[],
  services: BotServices,
  onCommandUsed?: CommandUsedListener,
): (interaction: Interaction) => Promise<void> {
  const byName = new Map(commands.map((command) => [command.data.name, command]));
  return async (interaction) => {
    if (!interaction.isChatInputCommand()) return;
    const command = byName.get(interaction.commandName);
    if (!command) {
      services.logger.warn({ command: interaction.commandName }, 'interaction for an unknown command');
      return;
    }
    try {
      await command.execute(interaction, services);
    } catch (error) {
      services.logger.error({ err: error, command: interaction.commandName, guildId: interaction.guildId }, 'command failed');
      const reply = { content: COMMAND_FAILED_MESSAGE, flags: MessageFlags.Ephemeral } as const;
      await (interaction.replied || interaction.deferred ? interaction.followUp(reply) : interaction.reply(reply)).catch(
        (replyError: unknown) => services.logger.warn({ err: replyError }, 'could not send the failure reply'),
      );
    } finally {
      if (interaction.guildId) onCommandUsed?.(interaction.guildId, interaction.commandName);
    }
  };
}
