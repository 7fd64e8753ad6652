import { RESTJSONErrorCodes } from 'discord-api-types/v10';

/** A nested Discord form error tree: `{ field: { _errors: [{ code, message }] } }`. */
export interface DiscordFormErrors {
  [key: string]: DiscordFormErrors | Array<{ code: string; message: string }>;
}

/** An error the REST layer answers in Discord's shape `{ code, message, errors? }` with an HTTP status. */
export class DiscordApiError extends Error {
  /** `status` is the HTTP status, `code` Discord's JSON error code. */
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: DiscordFormErrors,
  ) {
    super(message);
  }

  /** The JSON body Discord would send. */
  toJSON(): { code: number; message: string; errors?: DiscordFormErrors } {
    return { code: this.code, message: this.message, ...(this.errors ? { errors: this.errors } : {}) };
  }
}

/** 401 for a missing or wrong token (Discord answers this exact body). */
export const unauthorized = (): DiscordApiError => new DiscordApiError(401, 0, '401: Unauthorized');
/** 404 10004: the guild does not exist. */
export const unknownGuild = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownGuild, 'Unknown Guild');
/** 404 10003: the channel does not exist. */
export const unknownChannel = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownChannel, 'Unknown Channel');
/** 404 10007: the user is not a member of the guild. */
export const unknownMember = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownMember, 'Unknown Member');
/** 404 10008: the message does not exist. */
export const unknownMessage = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownMessage, 'Unknown Message');
/** 404 10011: the role does not exist. */
export const unknownRole = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownRole, 'Unknown Role');
/** 404 10013: the user does not exist. */
export const unknownUser = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownUser, 'Unknown User');
/** 404 10026: the user is not banned. */
export const unknownBan = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownBan, 'Unknown Ban');
/** 404 10014: the emoji is not valid. */
export const unknownEmoji = (): DiscordApiError => new DiscordApiError(400, RESTJSONErrorCodes.UnknownEmoji, 'Unknown Emoji');
/** 404 10015: the webhook (interaction token) is unknown or expired. */
export const unknownWebhook = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownWebhook, 'Unknown Webhook');
/** 401 50027: an interaction's webhook token that is unknown or expired (15 minutes). */
export const invalidWebhookToken = (): DiscordApiError => new DiscordApiError(401, RESTJSONErrorCodes.InvalidWebhookToken, 'Invalid Webhook Token');
/** 404 10062: the interaction is unknown or expired. */
export const unknownInteraction = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownInteraction, 'Unknown interaction');
/** 404 10063: the application command is unknown. */
export const unknownCommand = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownApplicationCommand, 'Unknown application command');
/** 403 50001: the bot cannot see the guild or channel. */
export const unknownVoiceState = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownVoiceState, 'Unknown Voice State');
/** 40032: moving, muting or deafening someone who is not in voice. */
export const notInVoice = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.TargetUserIsNotConnectedToVoice, 'Target user is not connected to voice.');
/** 50024: the target is not a channel of the right type (a move into a text channel). */
export const invalidChannelType = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.CannotExecuteActionOnThisChannelType, 'Cannot execute action on this channel type');

export const missingAccess = (): DiscordApiError => new DiscordApiError(403, RESTJSONErrorCodes.MissingAccess, 'Missing Access');
/** 403 50013: a permission or the role hierarchy forbids the action. */
export const missingPermissions = (): DiscordApiError => new DiscordApiError(403, RESTJSONErrorCodes.MissingPermissions, 'Missing Permissions');
/** 400 40060: a second initial response on the same interaction token. */
export const alreadyAcknowledged = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged, 'Interaction has already been acknowledged.');
/** 400 50006: a message with nothing in it (no content, embeds, components, attachments, poll). */
export const emptyMessage = (): DiscordApiError => new DiscordApiError(400, RESTJSONErrorCodes.CannotSendAnEmptyMessage, 'Cannot send an empty message');
/** 400 30003: a channel holds Discord's most pins already. */
export const maxPins = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.MaximumNumberOfPinsReachedForTheChannel, 'Maximum number of pins reached (50)');
/** 400 30005: a guild holds Discord's most roles already. */
export const maxRoles = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.MaximumNumberOfGuildRolesReached, 'Maximum number of guild roles reached (250)');
/** 400 30013: a guild holds Discord's most channels already. */
export const maxChannels = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.MaximumNumberOfGuildChannelsReached, 'Maximum number of guild channels reached (500)');
/** 400 40033: a crosspost of a message already crossposted. */
export const alreadyCrossposted = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.ThisMessageWasAlreadyCrossposted, 'This message has already been crossposted.');
/** 400 50021: pinning or crossposting a system message (a join, a boost, a pin notice). */
export const systemMessage = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.CannotExecuteActionOnSystemMessage, 'Cannot execute action on a system message');
/** 400 50028: deleting or moving @everyone, deleting a managed role. */
export const invalidRole = (): DiscordApiError => new DiscordApiError(400, RESTJSONErrorCodes.InvalidRole, 'Invalid Role');
/** 404 for a route the sandbox does not serve (Discord answers `404: Not Found`, code 0). */
export const notFoundRoute = (): DiscordApiError => new DiscordApiError(404, 0, '404: Not Found');

/** 400 50035 with Discord's nested `errors` form, built from `{ 'embeds.0.title': [code, message] }`. */
export function invalidFormBody(fields: Record<string, { code: string; message: string }>): DiscordApiError {
  const errors: DiscordFormErrors = {};
  for (const [path, error] of Object.entries(fields)) {
    let node: DiscordFormErrors = errors;
    for (const part of path.split('.')) {
      const child = node[part];
      if (child === undefined || Array.isArray(child)) {
        const created: DiscordFormErrors = {};
        node[part] = created;
        node = created;
      } else {
        node = child;
      }
    }
    node._errors = [error];
  }
  return new DiscordApiError(400, RESTJSONErrorCodes.InvalidFormBodyOrContentType, 'Invalid Form Body', errors);
}
