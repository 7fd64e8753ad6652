// Reads and writes of one guild's API that several pages share: the settings, the directory of
// channels, roles and emojis for the pickers, and the diagnostics. Query keys nest under the guild,
// so invalidating ['/api/servers', guildId] refreshes everything of that server.
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { DiagnosticsSchema, type DiagnosticFeature } from '../../src/shared/diagnostics';
import { GuildDirectorySchema } from '../../src/shared/servers';
import { SettingsViewSchema, type SettingsUpdate } from '../../src/shared/settings';
import { apiRequest } from './client';

/** The root of a guild's API. */
export const guildApi = (guildId: string) => `/api/servers/${encodeURIComponent(guildId)}`;

/** A GET of the guild's API parsed with a shared schema. */
export function readGuild<S extends z.ZodType>(guildId: string, path: string, schema: S) {
  return async (): Promise<z.infer<S>> => schema.parse(await apiRequest('GET', `${guildApi(guildId)}${path}`));
}

/** Query keys shared across pages. */
export const guildKeys = {
  all: (guildId: string) => ['/api/servers', guildId] as const,
  settings: (guildId: string) => ['/api/servers', guildId, 'settings'] as const,
  directory: (guildId: string) => ['/api/servers', guildId, 'directory'] as const,
  diagnostics: (guildId: string) => ['/api/servers', guildId, 'diagnostics'] as const,
};

/** The guild's settings merged over the defaults, with this user's access. */
export const settingsQuery = (guildId: string) =>
  queryOptions({ queryKey: guildKeys.settings(guildId), queryFn: readGuild(guildId, '/settings', SettingsViewSchema) });

/** The guild's channels, roles and emojis, for the pickers and checklists. */
export const directoryQuery = (guildId: string) =>
  queryOptions({ queryKey: guildKeys.directory(guildId), queryFn: readGuild(guildId, '/directory', GuildDirectorySchema) });

/** What will fail now, per feature (all of them: pages filter; the counts stay whole). */
export const diagnosticsQuery = (guildId: string) =>
  queryOptions({ queryKey: guildKeys.diagnostics(guildId), queryFn: readGuild(guildId, '/diagnostics', DiagnosticsSchema) });

/** The diagnostics of one feature, from the shared read. */
export function diagnosticsOf(data: z.infer<typeof DiagnosticsSchema> | undefined, feature: DiagnosticFeature | readonly DiagnosticFeature[]) {
  const wanted = typeof feature === 'string' ? [feature] : feature;
  return (data?.items ?? []).filter((item) => wanted.includes(item.feature));
}

/** PUT /settings: the page's fields; answers the full settings. */
export async function saveSettings(guildId: string, body: SettingsUpdate) {
  return SettingsViewSchema.parse(await apiRequest('PUT', `${guildApi(guildId)}/settings`, body));
}
