import type { PublicMeta } from './meta';

/** The permissions the bot is invited with: Administrator (spec section 9). */
export const INVITE_PERMISSIONS = '8';
/** The Administrator permission bit. */
export const ADMINISTRATOR = 8n;
/** The Manage Server (Manage Guild) permission bit. */
export const MANAGE_GUILD = 0x20n;

type Links = Pick<PublicMeta, 'clientId' | 'oauthBase' | 'cdnBase' | 'appBase'>;

/** The link to a message of a guild. */
export function messageUrl(links: Pick<Links, 'appBase'>, guildId: string, channelId: string, messageId: string): string {
  return `${links.appBase}/channels/${guildId}/${channelId}/${messageId}`;
}

/** The bot invite URL (scopes bot and applications.commands), optionally preselecting a guild. */
export function inviteUrl(links: Links, guildId?: string): string {
  const params = new URLSearchParams({
    client_id: links.clientId,
    permissions: INVITE_PERMISSIONS,
    scope: 'bot applications.commands',
  });
  if (guildId) {
    params.set('guild_id', guildId);
    params.set('disable_guild_select', 'true');
  }
  return `${links.oauthBase}/oauth2/authorize?${params}`;
}

/** A guild's icon on the CDN, or null when it has none. */
export function guildIconUrl(links: Links, guildId: string, icon: string | null | undefined, size = 64): string | null {
  if (!icon) return null;
  const ext = icon.startsWith('a_') ? 'gif' : 'png';
  return `${links.cdnBase}/icons/${guildId}/${icon}.${ext}?size=${size}`;
}

/** A user's avatar on the CDN at 64 px (spec section 3), or null when they have none. */
export function avatarUrl(links: Links, discordId: string, avatar: string | null | undefined, size = 64): string | null {
  if (!avatar) return null;
  const ext = avatar.startsWith('a_') ? 'gif' : 'png';
  return `${links.cdnBase}/avatars/${discordId}/${avatar}.${ext}?size=${size}`;
}

/** A custom emoji's image on the CDN. */
export function emojiUrl(links: Pick<Links, 'cdnBase'>, emojiId: string, animated: boolean, size = 48): string {
  return `${links.cdnBase}/emojis/${emojiId}.${animated ? 'gif' : 'png'}?size=${size}`;
}

/** The guild's page in the chat client. */
export function guildChannelsUrl(links: Links, guildId: string): string {
  return `${links.appBase}/channels/${guildId}`;
}

/** True when a permissions bitmask (decimal string) holds Administrator. */
export function hasAdministrator(permissions: string): boolean {
  return (BigInt(permissions) & ADMINISTRATOR) === ADMINISTRATOR;
}

/** True when the user may manage a guild: owner, Administrator or Manage Server. */
export function canManageGuild(permissions: string, owner: boolean): boolean {
  const bits = BigInt(permissions);
  return owner || (bits & ADMINISTRATOR) === ADMINISTRATOR || (bits & MANAGE_GUILD) === MANAGE_GUILD;
}
