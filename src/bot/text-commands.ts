import type { Message } from 'discord.js';
import type { Services } from '../core/services';
import { subcommandOf, type Command, type CommandReply } from './command';
import { failureText, reportFailure, runCommand } from './dispatch';
import { commandAttachment } from './slash';
import { textOptions } from './text';

/**
 * Serves the commands as text commands with the guild's prefix (Bot Settings): "!rank @member"
 * runs the same command function as "/rank member". Replies go in the channel as a reply to the
 * message, pinging nobody the reply does not mean to; unknown names are ignored, as bots do.
 */
export function createTextCommandHandler(commands: readonly Command[], services: Services): (message: Message) => void | Promise<void> {
  const byName = new Map(commands.map((command) => [command.name, command]));
  // Runs for every message the bot sees: what is not a command returns at once, without an await.
  return (message) => {
    if (!message.inGuild() || message.author.bot || message.webhookId || !message.content) return;
    return services.settings.with(message.guildId, (settings) => {
      const prefix = settings.commandPrefix;
      if (!message.content.startsWith(prefix)) return;
      const body = message.content.slice(prefix.length);
      const name = /^(\S+)/.exec(body)?.[1]?.toLowerCase();
      const command = name ? byName.get(name) : undefined;
      if (!command || !name) return;
      // "!case edit 12 …": the subcommand's word follows the name; without a known one, the parent answers.
      const word = command.subcommands ? /^\s+(\S+)/.exec(body.slice(name.length)) : null;
      const sub = word?.[1] ? subcommandOf(command, word[1].toLowerCase()) : undefined;
      if (sub && word) return runTextCommand(services, message, sub, { name: body.slice(0, name.length + word[0].length), body, prefix });
      return runTextCommand(services, message, command, { name, body, prefix });
    });
  };
}

/** Runs one text command and replies with its answer, or with why it failed. */
async function runTextCommand(
  services: Services,
  message: Message<true>,
  command: Command,
  { name, body, prefix }: { name: string; body: string; prefix: string },
): Promise<void> {
  const reply = async (content: CommandReply) => {
    const payload = await services.messenger.prepare(message.guildId, content);
    await message.reply({ ...payload, allowedMentions: { ...payload.allowedMentions, repliedUser: false } });
  };
  try {
    const member = message.member ?? (await message.guild.members.fetch(message.author.id));
    const files = [...message.attachments.values()].map(commandAttachment);
    const options = await textOptions(command, body.slice(name.length), message.guild, prefix, files);
    const answer = await runCommand(command, {
      services,
      guildId: message.guildId,
      channelId: message.channelId,
      user: { id: message.author.id, username: message.author.username, displayName: member.displayName, bot: false },
      member,
      options,
      source: 'text',
      prefix,
      messageId: message.id,
    });
    await reply(answer);
  } catch (error) {
    reportFailure(services, message.guildId, command.name, error);
    await reply({ content: failureText(services, error, { command: command.name, guildId: message.guildId, source: 'text' }) }).catch((replyError: unknown) =>
      services.logger.warn({ err: replyError }, 'could not answer a text command'),
    );
  } finally {
    services.activity.command(message.guildId, command.name);
  }
}
