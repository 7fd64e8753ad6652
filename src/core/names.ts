import type { Services } from './services';

/** A member's name for lists: their current server name, else the name they last had, else their id. */
export function memberName(services: Pick<Services, 'gateway'>, guildId: string, userId: string, stored: string | null): string {
  const member = services.gateway.client?.guilds.cache.get(guildId)?.members.cache.get(userId);
  return member?.displayName ?? stored ?? userId;
}
