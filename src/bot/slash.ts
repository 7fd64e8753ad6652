import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  type APIApplicationCommandBasicOption,
  type Attachment,
  type ChatInputCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Command, CommandAttachment, CommandOption, CommandUser, OptionValue } from './command';

const TYPES: Record<CommandOption['type'], ApplicationCommandOptionType> = {
  string: ApplicationCommandOptionType.String,
  integer: ApplicationCommandOptionType.Integer,
  number: ApplicationCommandOptionType.Number,
  boolean: ApplicationCommandOptionType.Boolean,
  user: ApplicationCommandOptionType.User,
  channel: ApplicationCommandOptionType.Channel,
  role: ApplicationCommandOptionType.Role,
  attachment: ApplicationCommandOptionType.Attachment,
};

function apiOption(option: CommandOption): APIApplicationCommandBasicOption {
  const base = { name: option.name, description: option.description, required: option.required ?? false };
  switch (option.type) {
    case 'string':
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        ...(option.minLength !== undefined ? { min_length: option.minLength } : {}),
        ...(option.maxLength !== undefined ? { max_length: option.maxLength } : {}),
        ...(option.choices ? { choices: option.choices } : {}),
        ...(option.autocomplete ? { autocomplete: true } : {}),
      } as APIApplicationCommandBasicOption;
    case 'integer':
    case 'number':
      return {
        ...base,
        type: TYPES[option.type],
        ...(option.min !== undefined ? { min_value: option.min } : {}),
        ...(option.max !== undefined ? { max_value: option.max } : {}),
      } as APIApplicationCommandBasicOption;
    default:
      return { ...base, type: TYPES[option.type] } as APIApplicationCommandBasicOption;
  }
}

/** The registration payload of a command: guild-only, with its options and default permission. */
export function slashJSON(command: Command): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return {
    name: command.name,
    description: command.description,
    type: ApplicationCommandType.ChatInput,
    default_member_permissions: command.permission !== undefined ? command.permission.toString() : null,
    contexts: [InteractionContextType.Guild],
    integration_types: [ApplicationIntegrationType.GuildInstall],
    ...(command.subcommands?.length
      ? {
          options: command.subcommands.map((sub) => ({
            type: ApplicationCommandOptionType.Subcommand as const,
            name: sub.name,
            description: sub.description,
            ...(sub.options?.length ? { options: sub.options.map(apiOption) } : {}),
          })),
        }
      : command.options?.length
        ? { options: command.options.map(apiOption) }
        : {}),
  };
}

/** A file discord.js holds (a slash command's upload, or a message's attachment) as a command sees it. */
export function commandAttachment(attachment: Attachment): CommandAttachment {
  return { id: attachment.id, url: attachment.url, name: attachment.name, size: attachment.size, contentType: attachment.contentType };
}

/** The options a member gave to a slash command, as plain values. */
export function slashOptions(command: Command, interaction: ChatInputCommandInteraction<'cached'>): Map<string, OptionValue> {
  const values = new Map<string, OptionValue>();
  for (const option of command.options ?? []) {
    const { name } = option;
    let value: OptionValue | null | undefined;
    switch (option.type) {
      case 'string':
        value = interaction.options.getString(name);
        break;
      case 'integer':
        value = interaction.options.getInteger(name);
        break;
      case 'number':
        value = interaction.options.getNumber(name);
        break;
      case 'boolean':
        value = interaction.options.getBoolean(name);
        break;
      case 'user': {
        const user = interaction.options.getUser(name);
        const member = interaction.options.getMember(name);
        value = user
          ? ({ id: user.id, username: user.username, displayName: member?.displayName ?? user.displayName, bot: user.bot } satisfies CommandUser)
          : null;
        break;
      }
      case 'channel':
        value = interaction.options.getChannel(name)?.id;
        break;
      case 'role':
        value = interaction.options.getRole(name)?.id;
        break;
      case 'attachment': {
        const attachment = interaction.options.getAttachment(name);
        value = attachment ? commandAttachment(attachment) : null;
        break;
      }
    }
    if (value !== null && value !== undefined) values.set(name, value);
  }
  return values;
}
