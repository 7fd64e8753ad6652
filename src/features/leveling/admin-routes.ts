// The leveling admin routes (issue 25, points 1 and 2): reset with undo, the backups and their
// restore, XP adjustments and their history, imports with a preview. Thin: validate, then the
// domain functions the /xp and /levels commands call too.
import * as z from 'zod';
import { actorOf } from '../../core/actor';
import { guildRoute, type RouteSpec } from '../../http/route';
import { rowId } from '../../shared/fields';
import {
  LevelImportInput,
  LevelResetInput,
  XpAdjustInput,
  XpAdjustmentsQuery,
  type ImportPreview,
  type LevelBackup,
  type LevelChangeResult,
  type XpAdjustmentPage,
  type XpAdjustResult,
} from '../../shared/level-admin';
import { adjustXp, listAdjustments } from './adjustments';
import { listBackups, resetLevels, restoreBackup } from './backups';
import { applyImport, previewImport } from './imports';

const BackupParams = z.object({ id: rowId('must be a backup id') });
const EXAMPLE_IMPORT = { body: { format: 'csv', content: ':content' } };

/** The routes, spread into the leveling feature's. */
export const levelAdminRoutes: RouteSpec[] = [
  guildRoute({
    method: 'post',
    path: '/leveling/reset',
    body: LevelResetInput,
    example: { body: {} },
    handler: ({ body, guild, account, services }): Promise<LevelChangeResult> => resetLevels(services, guild.id, body, actorOf(account)),
  }),
  guildRoute({
    method: 'get',
    path: '/leveling/backups',
    example: {},
    handler: ({ guild, services }): Promise<LevelBackup[]> => listBackups(services, guild.id),
  }),
  guildRoute({
    method: 'post',
    path: '/leveling/backups/:id/restore',
    example: {},
    handler: ({ params, guild, account, services }): Promise<LevelChangeResult> =>
      restoreBackup(services, guild.id, BackupParams.parse(params).id, actorOf(account)),
  }),
  guildRoute({
    method: 'post',
    path: '/leveling/adjust',
    body: XpAdjustInput,
    example: { body: { userId: ':userId', amount: 150, reason: 'Event prize' } },
    handler: ({ body, guild, account, services }): Promise<XpAdjustResult> => adjustXp(services, guild.id, body, actorOf(account)),
  }),
  guildRoute({
    method: 'get',
    path: '/leveling/adjustments',
    query: XpAdjustmentsQuery,
    example: {},
    handler: ({ query, guild, services }): Promise<XpAdjustmentPage> => listAdjustments(services, guild.id, query.page),
  }),
  guildRoute({
    method: 'post',
    path: '/leveling/import/preview',
    body: LevelImportInput,
    example: EXAMPLE_IMPORT,
    handler: ({ body, guild, services }): Promise<ImportPreview> => previewImport(services, guild.id, body),
  }),
  guildRoute({
    method: 'post',
    path: '/leveling/import',
    body: LevelImportInput,
    example: EXAMPLE_IMPORT,
    handler: ({ body, guild, account, services }): Promise<LevelChangeResult> => applyImport(services, guild.id, body, actorOf(account)),
  }),
];
