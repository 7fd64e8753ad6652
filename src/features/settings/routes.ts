import * as z from 'zod';
import { rowId } from '../../shared/fields';
import { guildRoute, type RouteSpec } from '../../http/route';
import { HistoryQuery, ImportInput, RestoreInput, SettingsUpdateSchema } from '../../shared/settings';
import { backupSettings, exportSettings, importSettings, resetSettings, restoreSettings, settingsView, writeSettings } from './service';
import { actorOf } from '../../core/actor';

const EntryParams = z.object({ entryId: rowId('must be a history entry id') });

/** GET/PUT the settings, their history with restore, export, import (dry run, apply), backup and reset. */
export const settingsRoutes: RouteSpec[] = [
  guildRoute({
    method: 'get',
    path: '/settings',
    example: {},
    handler: ({ guild, access, services }) => settingsView(services, guild.id, access),
  }),

  guildRoute({
    method: 'put',
    path: '/settings',
    body: SettingsUpdateSchema,
    example: { body: { xpCooldown: 45 } },
    handler: async ({ body, guild, access, account, services }) => {
      const { confirmRoleIds, baseVersion, ...settings } = body;
      await writeSettings(services, guild, settings, actorOf(account), { kind: 'update', confirmedRoleIds: confirmRoleIds, baseVersion });
      return settingsView(services, guild.id, access);
    },
  }),

  guildRoute({
    method: 'get',
    path: '/audit-log',
    query: HistoryQuery,
    example: { query: { page: '1' } },
    handler: async ({ query, guild, services }) => {
      const { entries, total } = await services.settings.history(guild.id, query.page, query.pageSize);
      return { entries, total, page: query.page, pageSize: query.pageSize };
    },
  }),

  guildRoute({
    method: 'post',
    path: '/settings/history/:entryId/restore',
    body: RestoreInput,
    example: {},
    handler: async ({ body, params, guild, access, account, services }) => {
      const { entryId } = EntryParams.parse(params);
      await restoreSettings(services, guild, entryId, actorOf(account), body.confirmRoleIds);
      return settingsView(services, guild.id, access);
    },
  }),

  guildRoute({
    method: 'get',
    path: '/settings/export',
    example: {},
    handler: ({ guild, services }) => exportSettings(services, guild.id),
  }),

  guildRoute({
    method: 'get',
    path: '/settings/backup',
    example: {},
    handler: ({ guild, services }) => backupSettings(services, guild),
  }),

  guildRoute({
    method: 'post',
    path: '/settings/import',
    body: ImportInput,
    example: { body: { file: { version: '1.0.0', exportedAt: '2026-01-01T00:00:00.000Z', serverSettings: { xpCooldown: 30 } } } },
    handler: ({ body, guild, account, services }) => importSettings(services, guild, body.file, body.apply, actorOf(account), body.confirmRoleIds),
  }),

  guildRoute({
    method: 'post',
    path: '/settings/reset',
    example: {},
    handler: async ({ guild, access, account, services }) => {
      await resetSettings(services, guild, actorOf(account));
      return settingsView(services, guild.id, access);
    },
  }),
];
