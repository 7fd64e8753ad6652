import { DiscordAPIError, type Guild } from 'discord.js';
import { InvalidInput } from '../core/errors';
import { isSnowflake } from '../shared/auth';
import type { Command, CommandAttachment, CommandUser, OptionValue } from './command';
import { usage } from './options';

/** A word of a text command, with where it starts in the input (quotes group words: "two words"). */
interface Token {
  text: string;
  start: number;
}

/** Splits the text after the command name into words; double quotes keep spaces inside one word. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (let match = pattern.exec(input); match; match = pattern.exec(input)) {
    tokens.push({ text: match[1] ?? match[2] ?? '', start: match.index });
  }
  return tokens;
}

/** The member or user an option names (a mention or a raw id), or null when Discord has no such user. */
async function resolveUser(guild: Guild, id: string): Promise<CommandUser | null> {
  try {
    const member = await guild.members.fetch(id);
    return { id, username: member.user.username, displayName: member.displayName, bot: member.user.bot };
  } catch (error) {
    if (!(error instanceof DiscordAPIError)) throw error;
  }
  try {
    const user = await guild.client.users.fetch(id);
    return { id, username: user.username, displayName: user.displayName, bot: user.bot };
  } catch (error) {
    if (error instanceof DiscordAPIError) return null;
    throw error;
  }
}

const BOOLEANS: Record<string, boolean> = { yes: true, true: true, on: true, no: false, false: false, off: false };

/**
 * Parses a text command's options in their declared order: mentions or ids for members, channels
 * and roles, numbers, yes/no, and text (the last text option takes the rest of the line). Files
 * are the message's `attachments`, taken in order by the attachment options; they use no word.
 * A word that does not fit its option answers with the option's name and the command's usage.
 */
export async function textOptions(
  command: Command,
  input: string,
  guild: Guild,
  prefix: string,
  attachments: readonly CommandAttachment[] = [],
): Promise<Map<string, OptionValue>> {
  const options = command.options ?? [];
  const tokens = tokenize(input);
  const values = new Map<string, OptionValue>();
  const wrong = (name: string, problem: string): never => {
    throw new InvalidInput({ [name]: problem }, `${name} ${problem}. Usage: ${usage(command, prefix)}`);
  };
  const lastWordOption = options.findLastIndex((option) => option.type !== 'attachment');
  let words = 0;
  let files = 0;
  for (const [index, option] of options.entries()) {
    if (option.type === 'attachment') {
      const file = attachments[files];
      files += 1;
      if (file) values.set(option.name, file);
      continue;
    }
    const token = tokens[words];
    words += 1;
    if (!token) continue;
    const word = token.text;
    switch (option.type) {
      case 'string': {
        const rest = input.slice(token.start).trim();
        values.set(option.name, index === lastWordOption && tokens.length > words ? rest : word);
        break;
      }
      case 'integer':
        if (!/^-?\d+$/.test(word)) wrong(option.name, 'must be a whole number');
        values.set(option.name, Number(word));
        break;
      case 'number':
        if (!/^-?\d+(\.\d+)?$/.test(word)) wrong(option.name, 'must be a number');
        values.set(option.name, Number(word));
        break;
      case 'boolean': {
        const flag = BOOLEANS[word.toLowerCase()];
        if (flag === undefined) wrong(option.name, 'must be yes or no');
        values.set(option.name, flag ?? false);
        break;
      }
      case 'user': {
        const id = /^<@!?(\d{15,21})>$/.exec(word)?.[1] ?? (isSnowflake(word) ? word : null);
        if (!id) wrong(option.name, 'must be a member (a mention or an id)');
        const user = await resolveUser(guild, id ?? '');
        if (!user) wrong(option.name, 'is not a user Discord knows');
        if (user) values.set(option.name, user);
        break;
      }
      case 'channel': {
        const id = /^<#(\d{15,21})>$/.exec(word)?.[1] ?? (isSnowflake(word) ? word : null);
        if (!id) wrong(option.name, 'must be a channel (a mention or an id)');
        values.set(option.name, id ?? '');
        break;
      }
      case 'role': {
        const id = /^<@&(\d{15,21})>$/.exec(word)?.[1] ?? (isSnowflake(word) ? word : null);
        if (!id) wrong(option.name, 'must be a role (a mention or an id)');
        values.set(option.name, id ?? '');
        break;
      }
    }
  }
  return values;
}
