// The appeal page's link, as the ban's DM carries it. Its own module: actions.ts (the DM) and
// appeals.ts (which lifts bans through actions.ts) both use it, without importing each other.
import type { Services } from '../../core/services';
import { appealPath } from '../../shared/appeals';

/** The full link of a member's appeal page in a server. */
export const appealUrl = (services: Pick<Services, 'config'>, guildId: string, userId: string) => `${services.config.publicUrl}${appealPath(guildId, userId)}`;

/** The lines a ban's DM ends with when the server takes appeals (moderation settings), or '' when it does not. */
export async function appealInvitation(services: Pick<Services, 'config' | 'settings'>, guildId: string, userId: string): Promise<string> {
  const settings = await services.settings.get(guildId);
  if (!settings.appealsEnabled) return '';
  return `\n\nYou can appeal this ban: ${appealUrl(services, guildId, userId)}\n(sign in with Discord as this account)`;
}
