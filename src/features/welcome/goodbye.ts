// Goodbye messages: a member who leaves is seen off in the goodbye channel, pinging nobody (they are
// gone; a mention of them is a name, not a ping).
import { Events } from 'discord.js';
import { listener } from '../../core/feature';
import { DiscordRefused } from '../../core/errors';
import type { Services } from '../../core/services';
import { renderWelcome } from '../../shared/welcome';

/** Someone who left, as the goodbye needs them. */
export interface Leaver {
  guildId: string;
  userId: string;
  username: string;
}

/** Posts the goodbye when it is on; answers the message id, or null when off. A refusal is logged (and reported by the messenger). */
export async function sayGoodbye(services: Services, leaver: Leaver): Promise<string | null> {
  const settings = await services.settings.get(leaver.guildId);
  const guild = services.gateway.guild(leaver.guildId);
  if (!settings.goodbyeEnabled || !settings.goodbyeChannelId || !guild) return null;
  const content = renderWelcome(settings.goodbyeMessage, {
    userId: leaver.userId,
    username: leaver.username,
    server: guild.name,
    memberCount: guild.memberCount,
  });
  try {
    // No mention is allowed: a goodbye pings nobody, whatever the template says.
    const posted = await services.messenger.post(leaver.guildId, settings.goodbyeChannelId, { content, mentionUserIds: [], mentionRoleIds: [] });
    return posted.id;
  } catch (error) {
    if (!(error instanceof DiscordRefused)) throw error;
    services.logger.warn({ err: error, guildId: leaver.guildId }, 'goodbye message refused');
    return null;
  }
}

/** A member left: the goodbye message when it is on. */
export const goodbyeOnLeave = listener(Events.GuildMemberRemove, 'GoodbyeMember', async (services, member) => {
  if (member.user.bot) return;
  await sayGoodbye(services, { guildId: member.guild.id, userId: member.id, username: member.user.username });
});
