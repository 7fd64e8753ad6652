// A command of the bot, written once and served both as a slash command (/rank) and as a text
// command with the guild's prefix (!rank). The command sees plain inputs (ids, names, numbers),
// never a discord.js interaction or message, and answers with a reply the dispatcher sends.
import type { APIActionRowComponent, APIButtonComponent, APIEmbed, GuildMember } from 'discord.js';
import type { Services } from '../core/services';
import type { FeatureSwitch } from '../shared/bot-settings';

/** A member or user given as an option. */
export interface CommandUser {
  id: string;
  username: string;
  /** The server nickname, the global display name, or the username. */
  displayName: string;
  bot: boolean;
}

/** A file given as an option: one uploaded with the slash command, or attached to the text command's message. */
export interface CommandAttachment {
  id: string;
  /** Where Discord serves the file (its CDN; the sandbox's own origin offline). */
  url: string;
  /** The file's name as uploaded. */
  name: string;
  /** Bytes. */
  size: number;
  /** The MIME type Discord reports, if any (the uploader's, or guessed from the name). */
  contentType: string | null;
}

/** A parsed option value: text, a number, a flag, a user, a file, or a channel or role id (text). */
export type OptionValue = string | number | boolean | CommandUser | CommandAttachment;

/** One choice of an autocompleted option. */
export interface Choice {
  name: string;
  value: string;
}

interface OptionBase<T extends string> {
  type: T;
  name: string;
  description: string;
  required?: boolean;
}

/** A declared option; slash registration, text parsing and validation all read it. */
export type CommandOption =
  | (OptionBase<'string'> & {
      minLength?: number;
      maxLength?: number;
      choices?: Choice[];
      /** Suggestions while the member types (slash only). */
      autocomplete?: (invocation: Omit<Invocation, 'options'>, typed: string) => Promise<Choice[]>;
    })
  | (OptionBase<'integer'> & { min?: number; max?: number })
  | (OptionBase<'number'> & { min?: number; max?: number })
  | OptionBase<'boolean'>
  | OptionBase<'user'>
  | OptionBase<'channel'>
  | OptionBase<'role'>
  /** A file: the slash command's upload, or the text command message's attachments in order (they take no word). */
  | OptionBase<'attachment'>;

/** A row of buttons under a reply; each button's custom id is `command:arg:arg` (see Command.button). */
export type ButtonRow = APIActionRowComponent<APIButtonComponent>;

/** What a command answers. Private replies are ephemeral for slash commands. */
export interface CommandReply {
  content?: string;
  embeds?: APIEmbed[];
  /** Buttons (paging): a click runs the command's `button` handler, which updates the message. */
  components?: ButtonRow[];
  ephemeral?: boolean;
  /** Members the reply may ping (nobody else is). */
  mentionUserIds?: string[];
}

/** One run of a command, from a slash command or a text message. */
export interface Invocation {
  services: Services;
  guildId: string;
  channelId: string;
  user: CommandUser;
  /** The invoking member, for permission and role checks. */
  member: GuildMember;
  options: ReadonlyMap<string, OptionValue>;
  source: 'slash' | 'text';
  /** How the member invokes commands here: '/' or the guild's text prefix. */
  prefix: string;
  /** The message that ran a text command (a slash command has none). */
  messageId?: string;
}

/** A command of a feature. */
export interface Command {
  name: string;
  description: string;
  /** The feature switch (Bot Settings) that must be on; off, the member is told so. */
  feature?: FeatureSwitch;
  /** A Discord permission the member needs (also registered as default_member_permissions). */
  permission?: bigint;
  /** Answer privately unless the reply says otherwise. */
  ephemeral?: boolean;
  /**
   * How long before a slow run is deferred ("thinking…"), 2000 ms by default. Commands slow by
   * nature (joining a voice channel) defer sooner, so a busy process (several joins at once) still
   * answers within Discord's three seconds; refusals come before it and stay private.
   */
  deferAfterMs?: number;
  options?: CommandOption[];
  /**
   * Subcommands (/case show, /case edit): each is run as a command of its own named 'case show',
   * with the parent's feature, permission and ephemeral unless it sets its own. The parent's `run`
   * answers a text command given no known subcommand (say which there are).
   */
  subcommands?: Subcommand[];
  run(invocation: Invocation): Promise<CommandReply | string>;
  /** A click on one of the reply's buttons (custom id `name:arg:…`): the new content of that message. */
  button?(invocation: Omit<Invocation, 'options' | 'source' | 'prefix'>, args: string[]): Promise<CommandReply>;
}

/** A subcommand of a command: its word, what it does, its options and its run. */
export type Subcommand = Pick<Command, 'name' | 'description' | 'options' | 'run'> & Partial<Pick<Command, 'permission' | 'ephemeral' | 'deferAfterMs'>>;

/** A subcommand as a command of its own ('case show'), or undefined when the command has no such subcommand. */
export function subcommandOf(command: Command, word: string): Command | undefined {
  const sub = command.subcommands?.find((candidate) => candidate.name === word);
  if (!sub) return undefined;
  const { subcommands: _ignored, button: _button, ...parent } = command;
  return {
    ...parent,
    ...sub,
    name: `${command.name} ${sub.name}`,
    permission: sub.permission ?? command.permission,
    ephemeral: sub.ephemeral ?? command.ephemeral,
  };
}

/** What a member can run of a command: the command itself, or each of its subcommands. */
export function commandLeaves(command: Command): Command[] {
  return command.subcommands ? command.subcommands.flatMap((sub) => subcommandOf(command, sub.name) ?? []) : [command];
}

/** The message a message command was run on, as plain values. */
export interface TargetMessage {
  id: string;
  channelId: string;
  authorId: string;
  /** The author's server nickname, global display name, or username. */
  authorName: string;
  authorBot: boolean;
  content: string;
  /** The link to the message (Discord's, or the sandbox's channel view offline). */
  url: string;
}

/** One run of a message command: who ran it where, on which message. */
export interface MessageInvocation extends Omit<Invocation, 'options' | 'source' | 'prefix'> {
  target: TargetMessage;
}

/**
 * A message command of a feature (Apps -> name, on a message): registered as a type 3 application
 * command and held to the same rules as a command (feature switch, permission, rate limit).
 */
export interface MessageCommand {
  /** What Discord shows under Apps: 1-32 characters, spaces and capitals allowed ('Report message'). */
  name: string;
  /** The feature switch (Bot Settings) that must be on; off, the member is told so. */
  feature?: FeatureSwitch;
  /** A Discord permission the member needs (also registered as default_member_permissions). */
  permission?: bigint;
  /** Answer privately unless the reply says otherwise. */
  ephemeral?: boolean;
  run(invocation: MessageInvocation): Promise<CommandReply | string>;
}

/** The custom id of a command's button: `command:arg:arg`. */
export function buttonId(command: string, ...args: (string | number)[]): string {
  return [command, ...args].join(':');
}

/** Typed readers of an invocation's options. */
export const read = {
  string: (invocation: Invocation, name: string): string | undefined => {
    const value = invocation.options.get(name);
    return typeof value === 'string' ? value : undefined;
  },
  number: (invocation: Invocation, name: string): number | undefined => {
    const value = invocation.options.get(name);
    return typeof value === 'number' ? value : undefined;
  },
  boolean: (invocation: Invocation, name: string): boolean | undefined => {
    const value = invocation.options.get(name);
    return typeof value === 'boolean' ? value : undefined;
  },
  user: (invocation: Invocation, name: string): CommandUser | undefined => {
    const value = invocation.options.get(name);
    return isCommandUser(value) ? value : undefined;
  },
  attachment: (invocation: Invocation, name: string): CommandAttachment | undefined => {
    const value = invocation.options.get(name);
    return isCommandAttachment(value) ? value : undefined;
  },
};

/** Whether an option value is a member or user. */
export function isCommandUser(value: OptionValue | undefined): value is CommandUser {
  return typeof value === 'object' && 'username' in value;
}

/** Whether an option value is a file. */
export function isCommandAttachment(value: OptionValue | undefined): value is CommandAttachment {
  return typeof value === 'object' && 'url' in value;
}
