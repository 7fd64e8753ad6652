import { DiscordAPIError, HTTPError, RESTJSONErrorCodes } from 'discord.js';
import { DiscordRefused } from '../core/errors';

/** Discord's refusals a server admin can act on, in words (the bot's name filled in). */
function defaultExplanation(code: number, botName: string, raw: string): string {
  switch (code) {
    case RESTJSONErrorCodes.MissingPermissions:
      return `${botName} is missing a Discord permission for that. Check its role's permissions in Server Settings → Roles.`;
    case RESTJSONErrorCodes.MissingAccess:
      return `${botName} cannot see that channel. Give its role View Channel there.`;
    case RESTJSONErrorCodes.UnknownChannel:
      return 'That channel no longer exists.';
    case RESTJSONErrorCodes.UnknownRole:
      return 'That role no longer exists.';
    case RESTJSONErrorCodes.UnknownMember:
      return 'That member is no longer in the server.';
    case RESTJSONErrorCodes.UnknownMessage:
      return 'That message no longer exists.';
    case RESTJSONErrorCodes.CannotSendMessagesToThisUser:
      return 'That member does not accept direct messages.';
    default:
      return `Discord refused: ${raw}`;
  }
}

/**
 * Runs a Discord call; a refusal from Discord becomes DiscordRefused with a sentence for the
 * admin: `explain(code)` when it knows the situation better, else a default by error code. Discord
 * failing (5xx after discord.js's retries) is said too. Anything else (a bug) is rethrown as it is.
 */
export async function askDiscord<T>(call: () => Promise<T>, botName: string, explain: (code: number) => string | undefined = () => undefined): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const unavailable = discordUnavailable(error);
    if (unavailable) throw unavailable;
    if (!(error instanceof DiscordAPIError)) throw error;
    const code = typeof error.code === 'number' ? error.code : 0;
    throw new DiscordRefused(code, explain(code) ?? defaultExplanation(code, botName, error.message));
  }
}

/**
 * Discord failing to answer (5xx after discord.js's retries) as the sentence a face shows, or null
 * for any other error. Calls made without askDiscord (a member looked up for the access check)
 * reach the faces this way rather than as "something went wrong".
 */
export function discordUnavailable(error: unknown): DiscordRefused | null {
  return error instanceof HTTPError ? new DiscordRefused(0, `Discord did not answer (${error.status} ${error.message}). Try again in a moment.`) : null;
}
