import type { ChatInputCommandInteraction, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import { pingCommand } from './commands/ping';

/** The services a command may use; the same ones the HTTP face passes to the domain. */
export interface BotServices {
  store: Store;
  logger: Logger;
}

/** A slash command: its registration payload and what it does (the discord.js guide's shape). */
export interface BotCommand {
  data: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
  execute(interaction: ChatInputCommandInteraction, services: BotServices): Promise<void>;
}

/** Every command the bot registers. Listed by hand: folder scanning does not survive bundling. */
export const COMMANDS: readonly BotCommand[] = [pingCommand];
