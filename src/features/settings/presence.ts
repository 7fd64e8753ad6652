import { ActivityType, type Client } from 'discord.js';
import { Forbidden } from '../../core/errors';
import type { Services } from '../../core/services';

/** Where the bot-wide status message is kept (app_settings). */
const STATUS_KEY = 'statusMessage';

/** The bot's status message, or null when it has none. */
export async function readStatus(services: Pick<Services, 'store'>): Promise<string | null> {
  const row = await services.store.models.AppSetting.findByPk(STATUS_KEY);
  return typeof row?.value === 'string' && row.value ? row.value : null;
}

/** Shows the status message as the bot's custom status (or clears it). */
export function applyPresence(client: Client | null, message: string | null): void {
  // Not once the client is destroyed (a shutdown while the status was being read): discord.js
  // would send to a shard that is gone and reject where no one awaits ("Shard 0 not found").
  if (!client?.isReady()) return;
  client.user.setPresence({
    status: 'online',
    activities: message ? [{ type: ActivityType.Custom, name: 'Custom Status', state: message }] : [],
  });
}

/**
 * Why `userId` may not change the status message, or null when they may. The status is the bot's
 * presence, the same in every server, so only the application's owner (from Discord's
 * application info) changes it; a server's admins see it read-only.
 */
export async function statusLock(services: Pick<Services, 'gateway' | 'logger'>, userId: string): Promise<string | null> {
  let owners: string[];
  try {
    owners = await services.gateway.applicationOwnerIds();
  } catch (error) {
    services.logger.warn({ err: error }, 'could not read the application owner');
    return 'The status message could not be unlocked: Discord did not say who owns the bot. Try again later.';
  }
  if (owners.includes(userId)) return null;
  return "The status message is the bot's presence in every server it is in, so only the bot's owner can change it.";
}

/** Stores and shows a new status message; Forbidden unless the actor owns the application. */
export async function setStatus(services: Services, userId: string, message: string | null): Promise<void> {
  const lock = await statusLock(services, userId);
  if (lock) throw new Forbidden(lock);
  await services.store.models.AppSetting.upsert({ key: STATUS_KEY, value: message ?? '', updatedAt: services.clock.now() });
  applyPresence(services.gateway.client, message);
}
