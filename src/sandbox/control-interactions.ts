import {
  ApplicationCommandType,
  ComponentType,
  PermissionFlagsBits as P,
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
} from 'discord-api-types/v10';
import type { z } from 'zod';
import { ControlError, controlGuild, parseControlBody } from './control-errors';
import { autocompleteSchema, componentSchema, interactionSchema, isFile, messageCommandSchema, modalSchema } from './control-schemas';
import {
  buildAutocompleteInteraction,
  buildCommandInteraction,
  buildComponentInteraction,
  buildMessageCommandInteraction,
  buildModalSubmitInteraction,
  OptionError,
  type OptionValue,
} from './interaction-payload';
import { INITIAL_RESPONSE_DEADLINE_MS, InteractionStore, type InteractionRecord } from './interactions';
import { channelPermissions, hasPermission } from './permissions';
import { ok, type Router } from './router';
import type { SandboxServices } from './services';
import type { ChannelRecord, GuildRecord } from './types';

/** How long a control call waits for the bot's final reply once it deferred. */
export const INTERACTION_REPLY_TIMEOUT_MS = 15_000;

type Helpers = {
  controlChannel(services: SandboxServices, channelId: string): { guild: GuildRecord; channel: ChannelRecord };
  requirePermission(services: SandboxServices, guild: GuildRecord, channel: ChannelRecord, userId: string, permission: bigint, what: string): void;
};

/** Waits for the bot's answer: 504 when it did not respond within 3 s, its response was refused, or it did not finish a deferral in time. */
async function finalOf(record: InteractionRecord, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), INTERACTION_REPLY_TIMEOUT_MS);
  });
  const reply = await Promise.race([record.final, timeout]);
  clearTimeout(timer);
  if (reply === null && record.refusal) {
    throw new ControlError(504, 'no_response', `Discord refused the bot's response to ${what} (${record.refusal}): the member sees "This interaction failed".`);
  }
  if (reply === null) {
    throw new ControlError(
      504,
      'no_response',
      `The bot did not respond to ${what} within ${INITIAL_RESPONSE_DEADLINE_MS / 1000} s: the member sees "The application did not respond".`,
    );
  }
  if (reply === 'timeout')
    throw new ControlError(504, 'no_reply', `The bot did not finish its reply to ${what} within ${INTERACTION_REPLY_TIMEOUT_MS / 1000} s.`);
  return { interactionId: record.id, ...reply };
}

/** Turns an OptionError from a payload builder into a 400 naming the field. */
function built<T>(build: () => T, prefix = 'options'): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof OptionError) throw new ControlError(400, 'invalid_option', error.message, { [`${prefix}.${error.field}`]: error.message });
    throw error;
  }
}

/** The enabled button or string select with this custom id on a message. */
function findComponent(rows: APIActionRowComponent<APIComponentInMessageActionRow>[], customId: string): APIComponentInMessageActionRow | undefined {
  return rows.flatMap((row) => row.components).find((component) => 'custom_id' in component && component.custom_id === customId);
}

/** Control routes for what members do with the bot's interactions: slash and message commands, components, modals, autocomplete. */
export function registerInteractionControls(router: Router, services: SandboxServices, { controlChannel, requirePermission }: Helpers): void {
  const { world } = services;

  /**
   * The guild, channel and registered command a member runs, checked like Discord checks them. A
   * slash command's name may carry its subcommand path ("config set"); a message command's is whole.
   */
  const commandTarget = (input: { guildId: string; channelId: string; userId: string; name: string }, type = ApplicationCommandType.ChatInput) => {
    const guild = controlGuild(services, input.guildId);
    const { channel } = controlChannel(services, input.channelId);
    if (channel.guildId !== guild.id) throw new ControlError(400, 'invalid_body', 'The channel is not in that guild.', { channelId: 'Not in the guild.' });
    if (!guild.members.has(world.botUserId)) throw new ControlError(404, 'bot_not_in_guild', 'The bot is not in that guild.');
    requirePermission(services, guild, channel, input.userId, P.ViewChannel | P.UseApplicationCommands, 'use application commands');
    const slash = type === ApplicationCommandType.ChatInput;
    const [commandName = '', ...path] = slash ? input.name.trim().split(/\s+/) : [input.name];
    const command = world.commands.findByName(guild.id, commandName, type);
    if (!command) throw new ControlError(404, 'unknown_command', `No ${slash ? '' : 'message '}command "${commandName}" is registered for this guild.`);
    const required = command.default_member_permissions ? BigInt(command.default_member_permissions) : 0n;
    if (!hasPermission(channelPermissions(guild, channel, input.userId), required)) {
      throw new ControlError(
        403,
        'missing_permissions',
        `User ${input.userId} lacks the permissions ${slash ? `/${commandName}` : `"${commandName}"`} requires.`,
      );
    }
    return { guild, channel, command, commandName, path };
  };
  type Given = NonNullable<z.infer<typeof interactionSchema>['options']>;
  const entriesOf = (options: Given | undefined) => Object.entries(options ?? {});
  /** The values of typed options; a file is refused (Discord sends no files while the member types). */
  const typedValuesOf = (options: Given | undefined): Record<string, OptionValue> =>
    Object.fromEntries(
      entriesOf(options).map(([name, value]): [string, OptionValue] => {
        if (isFile(value)) throw new ControlError(400, 'invalid_option', 'Files are not sent while typing.', { [`options.${name}`]: 'Not sent while typing.' });
        return [name, value];
      }),
    );
  /**
   * A slash command's values, its files kept in the channel as Discord keeps an interaction's
   * uploads (ephemeral): the option then carries the file's record. Refused, they are dropped again.
   */
  const runValuesOf = (
    options: Given | undefined,
    channelId: string,
    build: (values: Record<string, OptionValue>) => ReturnType<typeof buildCommandInteraction>,
  ) => {
    const kept: string[] = [];
    const values = Object.fromEntries(
      entriesOf(options).map(([name, value]): [string, OptionValue] => {
        if (!isFile(value)) return [name, value];
        const file = world.attachments.add(channelId, value, true);
        kept.push(file.id);
        return [name, file];
      }),
    );
    try {
      return built(() => build(values));
    } catch (error) {
      world.attachments.drop(kept);
      throw error;
    }
  };

  router.add('POST', '/interactions', 'none', async ({ body }) => {
    const input = parseControlBody(interactionSchema, body);
    const { guild, channel, command, commandName, path } = commandTarget(input);
    const id = world.snowflakes.next();
    const token = InteractionStore.newToken();
    const payload = runValuesOf(input.options, channel.id, (values) =>
      buildCommandInteraction(world, { id, token, guild, channel, userId: input.userId, command, path, values }),
    );
    const record = services.interactions.open({ id, token, guildId: guild.id, channelId: channel.id, userId: input.userId, commandName }, payload);
    return ok(await finalOf(record, `/${input.name}`));
  });

  router.add('POST', '/interactions/message-command', 'none', async ({ body }) => {
    const input = parseControlBody(messageCommandSchema, body);
    const { guild, channel, command } = commandTarget(input, ApplicationCommandType.Message);
    const message = world.messages.get(input.messageId);
    if (!message || message.channelId !== channel.id)
      throw new ControlError(404, 'unknown_message', 'No such message in this channel.', { messageId: 'Not a message of the channel.' });
    const id = world.snowflakes.next();
    const token = InteractionStore.newToken();
    const payload = built(() =>
      buildMessageCommandInteraction(world, { id, token, guild, channel, userId: input.userId, command, message: world.messages.present(message) }),
    );
    const record = services.interactions.open(
      { id, token, guildId: guild.id, channelId: channel.id, userId: input.userId, commandName: command.name },
      payload,
    );
    return ok(await finalOf(record, `"${command.name}"`));
  });

  router.add('POST', '/interactions/autocomplete', 'none', async ({ body }) => {
    const input = parseControlBody(autocompleteSchema, body);
    const { guild, channel, command, commandName, path } = commandTarget(input);
    const id = world.snowflakes.next();
    const token = InteractionStore.newToken();
    const payload = built(() =>
      buildAutocompleteInteraction(world, {
        id,
        token,
        guild,
        channel,
        userId: input.userId,
        command,
        path,
        values: typedValuesOf(input.options),
        focused: input.focused,
      }),
    );
    const record = services.interactions.open(
      { id, token, guildId: guild.id, channelId: channel.id, userId: input.userId, commandName, kind: 'autocomplete' },
      payload,
    );
    return ok(await finalOf(record, `the autocomplete of /${input.name}`));
  });

  router.add('POST', '/interactions/component', 'none', async ({ body }) => {
    const input = parseControlBody(componentSchema, body);
    const { guild, channel } = controlChannel(services, input.channelId);
    requirePermission(services, guild, channel, input.userId, P.ViewChannel, 'see');
    const message = world.messages.get(input.messageId);
    if (!message || message.channelId !== channel.id) throw new ControlError(404, 'unknown_message', 'No such message in this channel.');
    if (message.authorId !== world.botUserId)
      throw new ControlError(400, 'invalid_body', "Only the bot's messages have components it answers.", { messageId: 'Not a message of the bot.' });
    const component = findComponent(message.components, input.customId);
    if (!component)
      throw new ControlError(404, 'unknown_component', `The message has no button or menu "${input.customId}".`, { customId: 'No such component.' });
    if ('disabled' in component && component.disabled) throw new ControlError(400, 'disabled', `"${input.customId}" is disabled.`, { customId: 'Disabled.' });
    let values: string[] | undefined;
    if (component.type === ComponentType.StringSelect) {
      values = input.values ?? [];
      const allowed = new Set(component.options.map((option) => option.value));
      const min = component.min_values ?? 1;
      const max = component.max_values ?? 1;
      const wrong = values.filter((value) => !allowed.has(value));
      if (wrong.length > 0) throw new ControlError(400, 'invalid_body', `Not options of the menu: ${wrong.join(', ')}.`, { values: 'Unknown option.' });
      if (values.length < min || values.length > max)
        throw new ControlError(400, 'invalid_body', `Choose between ${min} and ${max} options.`, { values: `Choose ${min} to ${max}.` });
    } else if (component.type !== ComponentType.Button) {
      throw new ControlError(400, 'invalid_body', 'The sandbox models buttons and string select menus.', { customId: 'Not a button or a string select.' });
    }
    const id = world.snowflakes.next();
    const token = InteractionStore.newToken();
    const payload = built(() =>
      buildComponentInteraction(world, {
        id,
        token,
        guild,
        channel,
        userId: input.userId,
        message: world.messages.present(message),
        customId: input.customId,
        componentType: component.type,
        values,
      }),
    );
    const record = services.interactions.open(
      { id, token, guildId: guild.id, channelId: channel.id, userId: input.userId, commandName: input.customId, kind: 'component', sourceMessage: message },
      payload,
    );
    return ok(await finalOf(record, `"${input.customId}"`));
  });

  router.add('POST', '/interactions/modal', 'none', async ({ body }) => {
    const input = parseControlBody(modalSchema, body);
    const { guild, channel } = controlChannel(services, input.channelId);
    requirePermission(services, guild, channel, input.userId, P.ViewChannel, 'see');
    const modal = services.interactions.modals.get(input.userId);
    if (!modal || modal.customId !== input.customId)
      throw new ControlError(404, 'unknown_modal', `The bot has not shown this member a modal "${input.customId}".`, { customId: 'Not shown.' });
    const fields: Record<string, string> = {};
    for (const [customId, value] of Object.entries(input.fields)) {
      const field = modal.inputs.find((candidate) => candidate.customId === customId);
      if (!field) fields[`fields.${customId}`] = 'Not a text input of the modal.';
      else if (value.length > field.maxLength || value.length < (value.length === 0 ? 0 : field.minLength))
        fields[`fields.${customId}`] = `Must be ${field.minLength} to ${field.maxLength} characters.`;
    }
    for (const field of modal.inputs) if (field.required && !input.fields[field.customId]) fields[`fields.${field.customId}`] = `${field.label} is required.`;
    if (Object.keys(fields).length > 0) throw new ControlError(400, 'invalid_body', Object.values(fields).join(' '), fields);
    services.interactions.modals.delete(input.userId);
    const id = world.snowflakes.next();
    const token = InteractionStore.newToken();
    const payload = built(() =>
      buildModalSubmitInteraction(world, { id, token, guild, channel, userId: input.userId, customId: input.customId, fields: input.fields }),
    );
    const record = services.interactions.open(
      { id, token, guildId: guild.id, channelId: channel.id, userId: input.userId, commandName: input.customId, kind: 'modal' },
      payload,
    );
    return ok(await finalOf(record, `the modal "${input.customId}"`));
  });
}
