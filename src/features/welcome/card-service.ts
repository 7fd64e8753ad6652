import { PermissionFlagsBits } from 'discord.js';
// The welcome card for a member: their avatar fetched through the bot, the title filled in, drawn.
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import type { GuildSettings } from '../../shared/settings';
import { renderCardTitle, type WelcomeCardPreviewQuery } from '../../shared/welcome-card';
import { fetchUserAvatar } from './avatar';
import { drawWelcomeCard } from './card';

/** The card's file name on the welcome message. */
export const CARD_FILENAME = 'welcome.png';

/** Who the card is for. */
export interface CardMember {
  userId: string;
  username: string;
  memberNumber: number;
}

/** Draws the card for a member with the settings' title and colours (a draft's where given). */
export async function welcomeCardFor(
  services: Services,
  guild: Pick<GuildSummary, 'name'>,
  member: CardMember,
  settings: Pick<GuildSettings, 'welcomeCardTitle' | 'welcomeCardBackground' | 'welcomeCardAccent'>,
  draft: WelcomeCardPreviewQuery = {},
): Promise<Buffer> {
  const avatar = await fetchUserAvatar(services, member.userId);
  return drawWelcomeCard({
    avatar,
    title: renderCardTitle(draft.title ?? settings.welcomeCardTitle, { username: member.username, server: guild.name, memberCount: member.memberNumber }),
    username: member.username,
    memberNumber: member.memberNumber,
    background: draft.background ?? settings.welcomeCardBackground,
    accent: draft.accent ?? settings.welcomeCardAccent,
  });
}

/** Whether the bot may attach files in the channel (Discord refuses the whole message otherwise). */
export function canAttachIn(services: Services, guildId: string, channelId: string): boolean {
  const me = services.gateway.client?.guilds.cache.get(guildId)?.members.me;
  return me?.permissionsIn(channelId).has(PermissionFlagsBits.AttachFiles) ?? false;
}

/**
 * The card as a file for the welcome message in `channelId`, or none when it is off, the bot may
 * not attach files there, or it could not be drawn: the welcome goes out without it.
 */
export async function welcomeCardFiles(
  services: Services,
  guild: Pick<GuildSummary, 'id' | 'name'>,
  member: CardMember,
  settings: GuildSettings,
  channelId: string,
): Promise<{ name: string; data: Buffer }[]> {
  if (!settings.welcomeCardEnabled) return [];
  if (!canAttachIn(services, guild.id, channelId)) {
    services.logger.warn({ guildId: guild.id, channelId }, 'the bot may not attach files in the welcome channel: the welcome goes without its card');
    return [];
  }
  try {
    return [{ name: CARD_FILENAME, data: await welcomeCardFor(services, guild, member, settings) }];
  } catch (error) {
    services.logger.error({ err: error, guildId: guild.id }, 'could not draw the welcome card');
    return [];
  }
}
