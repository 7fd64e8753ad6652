// Message commands (Apps -> "Report message" on a message): their registration payload, and the
// message they were run on as the plain values a MessageCommand sees.
import {
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  type MessageContextMenuCommandInteraction,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from 'discord.js';
import type { Services } from '../core/services';
import type { MessageCommand, TargetMessage } from './command';
import { messageUrl } from '../shared/discord-urls';

/** The registration payload of a message command: type 3, guild-only, with its default permission. */
export function messageCommandJSON(command: MessageCommand): RESTPostAPIContextMenuApplicationCommandsJSONBody {
  return {
    name: command.name,
    type: ApplicationCommandType.Message,
    default_member_permissions: command.permission !== undefined ? command.permission.toString() : null,
    contexts: [InteractionContextType.Guild],
    integration_types: [ApplicationIntegrationType.GuildInstall],
  };
}

/** The message the member ran a message command on (Discord sends it resolved with the interaction). */
export function targetMessage(interaction: MessageContextMenuCommandInteraction<'cached'>, services: Services): TargetMessage {
  const message = interaction.targetMessage;
  return {
    id: message.id,
    channelId: message.channelId,
    authorId: message.author.id,
    authorName: message.member?.displayName ?? message.author.displayName,
    authorBot: message.author.bot,
    content: message.content,
    url: messageUrl(services.meta, interaction.guildId, message.channelId, message.id),
  };
}
