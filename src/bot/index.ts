import { Events, type ApplicationCommandData, type Client } from 'discord.js';
import { COMMANDS, type BotCommand, type BotServices } from './commands';
import { createInteractionDispatcher, type CommandUsedListener } from './interactions';

/** Options for wiring the bot's listeners and commands to a client. */
export interface StartBotOptions {
  client: Client;
  token: string;
  services: BotServices;
  commands?: readonly BotCommand[];
  onCommandUsed?: CommandUsedListener;
}

/** Attaches the listeners, registers the slash commands once ready, and logs in. */
export async function startBot({ client, token, services, commands = COMMANDS, onCommandUsed }: StartBotOptions): Promise<void> {
  const logger = services.logger;
  client.on(Events.InteractionCreate, createInteractionDispatcher(commands, services, onCommandUsed));
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardDisconnect, (event) => logger.warn({ code: event.code }, 'gateway disconnected'));
  client.on(Events.ShardResume, () => logger.info('gateway resumed'));
  client.once(Events.ClientReady, (ready) => {
    logger.info({ user: ready.user.tag, guilds: ready.guilds.cache.size }, 'bot ready');
    registerCommands(ready, commands).catch((error: unknown) => logger.error({ err: error }, 'command registration failed'));
  });
  await client.login(token);
}

/**
 * Registers the global slash commands, idempotently: the current set is fetched first and the
 * bulk overwrite is only sent when it differs, so restarts do not spend Discord's daily quota.
 */
export async function registerCommands(client: Client<true>, commands: readonly BotCommand[]): Promise<boolean> {
  const wanted = commands.map((command) => command.data.toJSON());
  const existing = await client.application.commands.fetch();
  const same =
    existing.size === wanted.length &&
    wanted.every((command) => {
      const current = existing.find((candidate) => candidate.name === command.name);
      // equals() reads both the camelCase and the raw snake_case shapes; the builder's JSON is the raw one.
      return current !== undefined && current.equals(command as unknown as ApplicationCommandData, true);
    });
  if (same) return false;
  await client.application.commands.set(wanted);
  return true;
}
