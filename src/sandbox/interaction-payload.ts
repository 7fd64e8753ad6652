import {
  ApplicationCommandOptionType as T,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  InteractionType,
  Locale,
  type APIApplicationCommand,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandOption,
  type APIChatInputApplicationCommandGuildInteraction,
  type APIApplicationCommandAutocompleteGuildInteraction,
  type APIMessage,
  type APIMessageApplicationCommandGuildInteraction,
  type APIMessageComponentGuildInteraction,
  type APIModalSubmitGuildInteraction,
  ComponentType,
  type APIInteractionDataResolved,
  type APIInteractionDataResolvedChannel,
  type APIInteractionDataResolvedGuildMember,
  type APIRole,
} from 'discord-api-types/v10';
import { presentAttachment, type AttachmentRecord } from './attachments';
import { discordOptionValue } from './option-rules';
import { channelPermissions, guildPermissions } from './permissions';
import { presentMember, presentRole, presentUser } from './presenters';
import type { ChannelRecord, GuildRecord } from './types';
import type { World } from './world';

/** A value a control-API caller gives for an option: a file it attached is already kept (AttachmentRecord). */
export type OptionValue = string | number | boolean | AttachmentRecord;

/** A bad option given to the control API (unknown, missing, wrong subcommand); names the field. */
export class OptionError extends Error {
  /** `field` is the option's name. */
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Everything an INTERACTION_CREATE is made from. */
export interface InteractionInput {
  id: string;
  token: string;
  guild: GuildRecord;
  channel: ChannelRecord;
  userId: string;
  command: APIApplicationCommand;
  /** Subcommand path after the command name, e.g. ['config', 'set']. */
  path: string[];
  values: Record<string, OptionValue>;
}

/** The fields every guild interaction shares: who, where, with which permissions. */
function interactionBase(world: World, guild: GuildRecord, channel: ChannelRecord, userId: string, id: string, token: string) {
  const member = guild.members.get(userId);
  const user = world.users.get(userId);
  if (!member || !user) throw new OptionError('userId', 'The user is not a member of this guild.');
  const { user: _user, ...memberFields } = presentMember(world, member);
  return {
    id,
    application_id: world.applicationId,
    token,
    version: 1 as const,
    guild_id: guild.id,
    guild: { id: guild.id, locale: Locale.EnglishUS, features: [] },
    channel: { id: channel.id, type: channel.type, name: channel.name, guild_id: guild.id },
    channel_id: channel.id,
    member: { ...memberFields, user: presentUser(user), permissions: channelPermissions(guild, channel, userId).toString() },
    app_permissions: channelPermissions(guild, channel, world.botUserId).toString(),
    locale: Locale.EnglishUS,
    guild_locale: Locale.EnglishUS,
    entitlements: [],
    authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guild.id },
    context: InteractionContextType.Guild,
    attachment_size_limit: 10 * 1024 * 1024,
  };
}

/** The full INTERACTION_CREATE payload for a slash command, with `resolved` data for user/role/channel options. */
export function buildCommandInteraction(world: World, input: InteractionInput): APIChatInputApplicationCommandGuildInteraction {
  const { guild, channel, userId, command } = input;
  const base = interactionBase(world, guild, channel, userId, input.id, input.token);
  const resolved: Resolved = { users: {}, members: {}, roles: {}, channels: {}, attachments: {} };
  const options = buildOptions(world, guild, command.options ?? [], input.path, input.values, resolved);
  const used = Object.values(resolved).some((group) => Object.keys(group).length > 0);
  return {
    ...base,
    type: InteractionType.ApplicationCommand,
    data: {
      id: command.id,
      name: command.name,
      type: ApplicationCommandType.ChatInput,
      ...(options.length > 0 ? { options } : {}),
      ...(used ? { resolved } : {}),
      ...(command.guild_id ? { guild_id: command.guild_id } : {}),
    },
  };
}

/**
 * An autocomplete interaction (type 4): the options typed so far, as strings for a string option,
 * the focused one marked. Nothing is checked for completeness: the member is still typing.
 */
export function buildAutocompleteInteraction(world: World, input: InteractionInput & { focused: string }): APIApplicationCommandAutocompleteGuildInteraction {
  const { guild, channel, userId, command } = input;
  const base = interactionBase(world, guild, channel, userId, input.id, input.token);
  const defs = command.options ?? [];
  if (!defs.some((def) => def.name === input.focused && 'autocomplete' in def && def.autocomplete)) {
    throw new OptionError('focused', `Option "${input.focused}" of /${command.name} has no autocomplete.`);
  }
  const options = Object.entries(input.values).map(([name, value]) => {
    const def = defs.find((d) => d.name === name);
    if (!def) throw new OptionError(name, `Unknown option "${name}".`);
    return {
      type: def.type,
      name,
      value: def.type === T.String || name === input.focused ? String(value) : value,
      ...(name === input.focused ? { focused: true } : {}),
    };
  });
  return {
    ...base,
    type: InteractionType.ApplicationCommandAutocomplete,
    data: { id: command.id, name: command.name, type: ApplicationCommandType.ChatInput, options: options as never },
  };
}

/** A member running a message command (Apps -> name) on a message: an application command with the message resolved. */
export function buildMessageCommandInteraction(
  world: World,
  input: { id: string; token: string; guild: GuildRecord; channel: ChannelRecord; userId: string; command: APIApplicationCommand; message: APIMessage },
): APIMessageApplicationCommandGuildInteraction {
  const { command, message } = input;
  const base = interactionBase(world, input.guild, input.channel, input.userId, input.id, input.token);
  return {
    ...base,
    type: InteractionType.ApplicationCommand,
    data: {
      id: command.id,
      name: command.name,
      type: ApplicationCommandType.Message,
      target_id: message.id,
      resolved: { messages: { [message.id]: message } },
      ...(command.guild_id ? { guild_id: command.guild_id } : {}),
    },
  };
}

/** A member clicking a button or choosing in a select menu (type 3) on one of the bot's messages. */
export function buildComponentInteraction(
  world: World,
  input: {
    id: string;
    token: string;
    guild: GuildRecord;
    channel: ChannelRecord;
    userId: string;
    message: APIMessage;
    customId: string;
    componentType: ComponentType;
    values?: string[];
  },
): APIMessageComponentGuildInteraction {
  const base = interactionBase(world, input.guild, input.channel, input.userId, input.id, input.token);
  const data =
    input.componentType === ComponentType.Button
      ? { custom_id: input.customId, component_type: ComponentType.Button as const }
      : { custom_id: input.customId, component_type: ComponentType.StringSelect as const, values: input.values ?? [] };
  return { ...base, type: InteractionType.MessageComponent, message: input.message, data } as APIMessageComponentGuildInteraction;
}

/** A member submitting a modal the bot showed (type 5), with each text input's value. */
export function buildModalSubmitInteraction(
  world: World,
  input: { id: string; token: string; guild: GuildRecord; channel: ChannelRecord; userId: string; customId: string; fields: Record<string, string> },
): APIModalSubmitGuildInteraction {
  const base = interactionBase(world, input.guild, input.channel, input.userId, input.id, input.token);
  return {
    ...base,
    type: InteractionType.ModalSubmit,
    data: {
      custom_id: input.customId,
      components: Object.entries(input.fields).map(([customId, value]) => ({
        type: ComponentType.ActionRow,
        components: [{ type: ComponentType.TextInput, custom_id: customId, value }],
      })),
    },
  } as APIModalSubmitGuildInteraction;
}

type Resolved = Required<Pick<APIInteractionDataResolved, 'users' | 'members' | 'roles' | 'channels' | 'attachments'>>;

function buildOptions(
  world: World,
  guild: GuildRecord,
  defs: APIApplicationCommandOption[],
  path: string[],
  values: Record<string, OptionValue>,
  resolved: Resolved,
): APIApplicationCommandInteractionDataOption[] {
  const [next, ...rest] = path;
  if (next !== undefined) {
    const def = defs.find((d) => d.name === next);
    if (def?.type === T.SubcommandGroup) {
      return [{ type: T.SubcommandGroup, name: def.name, options: buildOptions(world, guild, def.options ?? [], rest, values, resolved) as never }];
    }
    if (def?.type === T.Subcommand && rest.length === 0) {
      return [{ type: T.Subcommand, name: def.name, options: leafOptions(world, guild, def.options ?? [], values, resolved) }];
    }
    throw new OptionError('name', `Unknown subcommand "${next}".`);
  }
  if (defs.some((d) => d.type === T.Subcommand || d.type === T.SubcommandGroup)) {
    throw new OptionError('name', 'This command needs a subcommand, e.g. "command sub".');
  }
  return leafOptions(world, guild, defs, values, resolved);
}

function leafOptions(
  world: World,
  guild: GuildRecord,
  defs: APIApplicationCommandOption[],
  values: Record<string, OptionValue>,
  resolved: Resolved,
): APIApplicationCommandInteractionDataBasicOption[] {
  for (const def of defs) {
    if ('required' in def && def.required && values[def.name] === undefined) throw new OptionError(def.name, `Option "${def.name}" is required.`);
  }
  return Object.entries(values).map(([name, given]) => {
    const def = defs.find((d) => d.name === name);
    if (!def) throw new OptionError(name, `Unknown option "${name}".`);
    // A file goes only to an attachment option, which takes nothing else (Discord's client offers an upload there).
    if ((def.type === T.Attachment) !== (typeof given === 'object')) {
      throw new OptionError(name, `Option "${name}" ${def.type === T.Attachment ? 'must be a file' : 'must not be a file'}.`);
    }
    if (typeof given === 'object') {
      resolved.attachments[given.id] = presentAttachment(given);
      return { type: T.Attachment, name, value: given.id };
    }
    const checked = discordOptionValue(def, given);
    if ('refused' in checked) throw new OptionError(name, `Option "${name}" ${checked.refused}.`);
    const { value } = checked;
    const id = String(value);
    switch (def.type) {
      case T.Integer:
      case T.Number:
        return { type: def.type, name, value: Number(value) };
      case T.Boolean:
        return { type: T.Boolean, name, value: value === true };
      case T.User:
        resolveUser(world, guild, id, resolved, name);
        return { type: T.User, name, value: id };
      case T.Role:
        resolved.roles[id] = resolveRole(guild, id, name);
        return { type: T.Role, name, value: id };
      case T.Mentionable:
        if (guild.roles.has(id)) resolved.roles[id] = resolveRole(guild, id, name);
        else resolveUser(world, guild, id, resolved, name);
        return { type: T.Mentionable, name, value: id };
      case T.Channel:
        resolved.channels[id] = resolveChannel(guild, id, name, def.channel_types);
        return { type: T.Channel, name, value: id };
      case T.String:
        return { type: T.String, name, value: id };
      default:
        throw new OptionError(name, `Option "${name}" has a type the sandbox does not model.`);
    }
  });
}

function resolveUser(world: World, guild: GuildRecord, id: string, resolved: Resolved, field: string): void {
  const user = world.users.get(id);
  if (!user) throw new OptionError(field, `Unknown user ${id}.`);
  resolved.users[id] = presentUser(user);
  const member = guild.members.get(id);
  if (!member) return;
  // Resolved members carry neither the user (it is in `users`) nor deaf/mute, as Discord sends them.
  const { user: _user, deaf: _deaf, mute: _mute, ...fields } = presentMember(world, member);
  resolved.members[id] = { ...fields, permissions: guildPermissions(guild, id).toString() } satisfies APIInteractionDataResolvedGuildMember;
}

function resolveRole(guild: GuildRecord, id: string, field: string): APIRole {
  const role = guild.roles.get(id);
  if (!role) throw new OptionError(field, `Unknown role ${id}.`);
  return presentRole(role);
}

function resolveChannel(guild: GuildRecord, id: string, field: string, types?: readonly number[]): APIInteractionDataResolvedChannel {
  const channel = guild.channels.get(id);
  if (!channel) throw new OptionError(field, `Unknown channel ${id}.`);
  if (types && !types.includes(channel.type)) throw new OptionError(field, `Option "${field}" takes another kind of channel.`);
  return { id, name: channel.name, type: channel.type, permissions: '0' } as APIInteractionDataResolvedChannel;
}
