// The leveling admin tools' reads and writes: backups (reset, restore), XP adjustments and their
// history, imports (preview, apply). Keys nest under the leveling keys, so a change refreshes the
// leaderboard and the stats with them.
import { queryOptions } from '@tanstack/react-query';
import { ProfileSchema } from '../../../src/shared/leveling';
import {
  ImportPreviewSchema,
  LevelBackupSchema,
  LevelChangeResultSchema,
  XpAdjustmentPageSchema,
  XpAdjustResultSchema,
  type LevelImportInput,
  type LevelResetInput,
  type XpAdjustInput,
} from '../../../src/shared/level-admin';
import { apiRequest } from '../../api/client';
import { guildApi, readGuild } from '../../api/guild';
import { levelingKeys } from './api';

/** The admin tools' query keys. */
export const levelAdminKeys = {
  backups: (guildId: string) => [...levelingKeys.all(guildId), 'backups'] as const,
  adjustments: (guildId: string, page: number) => [...levelingKeys.all(guildId), 'adjustments', page] as const,
  profile: (guildId: string, userId: string) => [...levelingKeys.all(guildId), 'profile', userId] as const,
};

/** The backups, newest first. */
export const backupsQuery = (guildId: string) =>
  queryOptions({ queryKey: levelAdminKeys.backups(guildId), queryFn: readGuild(guildId, '/leveling/backups', LevelBackupSchema.array()) });

/** One page of the adjustment history. */
export const adjustmentsQuery = (guildId: string, page: number) =>
  queryOptions({
    queryKey: levelAdminKeys.adjustments(guildId, page),
    queryFn: readGuild(guildId, `/leveling/adjustments?page=${page}`, XpAdjustmentPageSchema),
  });

/** A member's level and XP (what a reset would take). */
export const memberLevelQuery = (guildId: string, userId: string) =>
  queryOptions({ queryKey: levelAdminKeys.profile(guildId, userId), queryFn: readGuild(guildId, `/members/${userId}/profile`, ProfileSchema) });

/** POST /leveling/reset. */
export async function resetLevels(guildId: string, input: LevelResetInput) {
  return LevelChangeResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/leveling/reset`, input));
}

/** POST /leveling/backups/:id/restore. */
export async function restoreBackup(guildId: string, id: number) {
  return LevelChangeResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/leveling/backups/${id}/restore`, {}));
}

/** POST /leveling/adjust. */
export async function adjustXp(guildId: string, input: XpAdjustInput) {
  return XpAdjustResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/leveling/adjust`, input));
}

/** POST /leveling/import/preview. */
export async function previewImport(guildId: string, input: LevelImportInput) {
  return ImportPreviewSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/leveling/import/preview`, input));
}

/** POST /leveling/import. */
export async function applyImport(guildId: string, input: LevelImportInput) {
  return LevelChangeResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/leveling/import`, input));
}
