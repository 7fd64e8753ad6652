// The Settings page's reads and writes: query options (key, URL, schema) and the calls behind its mutations.
import { queryOptions } from '@tanstack/react-query';
import { GrantSchema, HistoryPageSchema, ImportResultSchema, SettingsViewSchema, type GrantInput } from '../../../src/shared/settings';
import { WebhookDeliveryListSchema } from '../../../src/shared/notifications';
import { apiRequest, saveBlob } from '../../api/client';
import { guildApi, guildKeys, readGuild as read } from '../../api/guild';

export { directoryQuery, saveSettings, settingsQuery } from '../../api/guild';

/** Query keys of this page, by guild; invalidating `all(guildId)` refreshes everything below it. */
export const settingsKeys = {
  all: guildKeys.settings,
  history: (guildId: string, page: number) => ['/api/servers', guildId, 'settings', 'history', page] as const,
  grants: (guildId: string) => ['/api/servers', guildId, 'settings', 'access'] as const,
  deliveries: (guildId: string) => ['/api/servers', guildId, 'settings', 'deliveries'] as const,
};

/** One page of the settings history, newest first. */
export const historyQuery = (guildId: string, page: number, pageSize = 10) =>
  queryOptions({ queryKey: settingsKeys.history(guildId, page), queryFn: read(guildId, `/audit-log?page=${page}&pageSize=${pageSize}`, HistoryPageSchema) });

/** Delegated dashboard access grants. */
export const grantsQuery = (guildId: string) =>
  queryOptions({ queryKey: settingsKeys.grants(guildId), queryFn: read(guildId, '/access', GrantSchema.array()) });

/** The last webhook deliveries. */
export const deliveriesQuery = (guildId: string) =>
  queryOptions({ queryKey: settingsKeys.deliveries(guildId), queryFn: read(guildId, '/webhook-deliveries', WebhookDeliveryListSchema) });

/** Puts the settings back as they were after a history entry. */
export async function restoreSettings(guildId: string, entryId: number) {
  return SettingsViewSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/settings/history/${entryId}/restore`));
}

/** Reset Bot: every default back, server-side. */
export async function resetSettings(guildId: string) {
  return SettingsViewSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/settings/reset`));
}

/** Import Data: a dry run (apply false) or the real thing. */
export async function importSettings(guildId: string, file: unknown, apply: boolean) {
  return ImportResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/settings/import`, { file, apply }));
}

/** The Export Data and Backup Settings files. */
export function downloadable(guildId: string, kind: 'export' | 'backup') {
  return apiRequest<unknown>('GET', `${guildApi(guildId)}/settings/${kind}`);
}

/** Grants a role or member view or edit access. */
export async function grantAccess(guildId: string, input: GrantInput) {
  return GrantSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/access`, input));
}

/** Takes a grant away. */
export async function revokeAccess(guildId: string, grantId: number) {
  await apiRequest('DELETE', `${guildApi(guildId)}/access/${grantId}`);
}

/** Saves `data` as a JSON file download named `name`. */
export function saveJsonFile(name: string, data: unknown): void {
  saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), name);
}
