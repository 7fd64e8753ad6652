// Raid protection's reads and writes on the moderation page: raid mode now, and starting or ending
// it by hand. Keys nest under moderation's, so a save of the settings refreshes it too.
import { queryOptions } from '@tanstack/react-query';
import { RaidResultSchema, RaidStatusSchema, type RaidActionInput } from '../../../src/shared/raids';
import { apiRequest } from '../../api/client';
import { guildApi, readGuild } from '../../api/guild';
import { moderationKeys } from './api';

/** How often the card reads raid mode again: the bot may turn it on or off at any time. */
const RAID_REFRESH_MS = 15_000;

/** The query key of raid mode. */
export const raidKey = (guildId: string) => [...moderationKeys.all(guildId), 'raid'] as const;

/** GET /moderation/raid, read again every few seconds while the page is open. */
export const raidStatusQuery = (guildId: string) =>
  queryOptions({ queryKey: raidKey(guildId), queryFn: readGuild(guildId, '/moderation/raid', RaidStatusSchema), refetchInterval: RAID_REFRESH_MS });

/** POST /moderation/raid/start or /end. */
export async function runRaidAction(guildId: string, action: 'start' | 'end', input: RaidActionInput = {}) {
  return RaidResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/raid/${action}`, input));
}
