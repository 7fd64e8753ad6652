// The role grants card's reads and writes: the waiting and failed grants, Retry now and Dismiss.
import { queryOptions } from '@tanstack/react-query';
import { RoleGrantListSchema, RoleGrantSchema } from '../../../src/shared/role-grants';
import { apiRequest } from '../../api/client';
import { guildApi, guildKeys, readGuild } from '../../api/guild';

/** The card's query key, under the guild's. */
export const roleGrantKeys = {
  list: (guildId: string) => [...guildKeys.all(guildId), 'role-grants'] as const,
};

/** GET /role-grants: waiting and failed grants, newest first, with their counts. */
export const roleGrantsQuery = (guildId: string) =>
  queryOptions({ queryKey: roleGrantKeys.list(guildId), queryFn: readGuild(guildId, '/role-grants', RoleGrantListSchema) });

/** POST /role-grants/:id/retry: the grant as it is after the try. */
export async function retryRoleGrant(guildId: string, id: number) {
  return RoleGrantSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/role-grants/${id}/retry`));
}

/** DELETE /role-grants/:id. */
export async function dismissRoleGrant(guildId: string, id: number): Promise<void> {
  await apiRequest('DELETE', `${guildApi(guildId)}/role-grants/${id}`);
}
