// Leveling's admin tools (issue 25, points 1 and 2): resets with a 7-day undo, XP given or taken
// with a reason, and imports from a CSV or MEE6's leaderboard export. The shapes of their routes,
// their limits and the sentences both faces show.
import * as z from 'zod';
import { Snowflake } from './auth';
import { text, wholeNumber } from './fields';

/** How long a backup can be restored. */
export const BACKUP_DAYS = 7;
/** The most XP a member can hold (the column is a 32-bit integer; far above any real total). */
export const MAX_TOTAL_XP = 1_000_000_000;
/** The most XP one adjustment gives or takes. */
export const MAX_ADJUSTMENT = 10_000_000;
/** The longest reason of an adjustment. */
export const MAX_ADJUSTMENT_REASON = 200;
/** The most members one import carries. */
export const MAX_IMPORT_ROWS = 20_000;
/** The largest import text, in characters (the dashboard's file pick is read as text). */
export const MAX_IMPORT_CHARS = 240_000;
/** How many rows an import preview lists (the counts cover them all). */
export const PREVIEW_ROWS = 200;

/** What restoring does, said once for the dashboard and the command. */
export const RESTORE_RULE =
  'Restoring puts back each member’s XP and level exactly as they were before; XP they earned since is replaced, ' +
  'and members the backup does not cover keep theirs.';
/** What an import does to the XP it names. */
export const IMPORT_RULE = 'Each listed member’s XP becomes the imported XP (not added to it); their level follows from it on this server’s curve.';

/** POST /leveling/reset: one member's XP and level, or everyone's without userId. */
export const LevelResetInput = z.object({ userId: Snowflake.optional() }).strict();
export type LevelResetInput = z.input<typeof LevelResetInput>;

/** The kinds of change a backup undoes. */
export const BACKUP_KINDS = ['reset-member', 'reset-server', 'import'] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** A backup as the dashboard lists it. */
export const LevelBackupSchema = z.object({
  id: z.number().int(),
  kind: z.enum(BACKUP_KINDS),
  summary: z.string(),
  memberCount: z.number().int(),
  actorName: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Days left to restore it, a started day counted whole (1 on its last day). */
  daysLeft: z.number().int(),
  restoredAt: z.string().nullable(),
  restoredByName: z.string().nullable(),
});
export type LevelBackup = z.infer<typeof LevelBackupSchema>;

/** What a reset, restore or import did. */
export const LevelChangeResultSchema = z.object({
  /** Members whose rows changed. */
  members: z.number().int(),
  /** The backup that undoes it (null for a restore). */
  backupId: z.number().int().nullable(),
  message: z.string(),
});
export type LevelChangeResult = z.infer<typeof LevelChangeResultSchema>;

/** POST /leveling/adjust: give (positive) or take (negative) XP, with a reason. */
export const XpAdjustInput = z
  .object({
    userId: Snowflake,
    amount: wholeNumber(-MAX_ADJUSTMENT, MAX_ADJUSTMENT).refine((amount) => amount !== 0, 'must not be 0'),
    reason: text(MAX_ADJUSTMENT_REASON),
  })
  .strict();
export type XpAdjustInput = z.input<typeof XpAdjustInput>;

/** One adjustment in the history. */
export const XpAdjustmentSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  username: z.string(),
  amount: z.number().int(),
  reason: z.string(),
  fromXp: z.number().int(),
  toXp: z.number().int(),
  fromLevel: z.number().int(),
  toLevel: z.number().int(),
  actorName: z.string().nullable(),
  createdAt: z.string(),
});
export type XpAdjustment = z.infer<typeof XpAdjustmentSchema>;

/** What an adjustment answers: the history row, and a reward Discord refused, if any. */
export const XpAdjustResultSchema = z.object({ adjustment: XpAdjustmentSchema, rewardProblem: z.string().nullable() });
export type XpAdjustResult = z.infer<typeof XpAdjustResultSchema>;

/** GET /leveling/adjustments?page=: newest first. */
export const XpAdjustmentPageSchema = z.object({ entries: z.array(XpAdjustmentSchema), page: z.number().int(), total: z.number().int() });
export type XpAdjustmentPage = z.infer<typeof XpAdjustmentPageSchema>;

/** Where imported levels come from. */
export const IMPORT_FORMATS = ['csv', 'mee6'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const IMPORT_FORMAT_LABELS: Record<ImportFormat, string> = { csv: 'CSV (user id, XP)', mee6: 'MEE6 leaderboard (JSON)' };

/** POST /leveling/import/preview and /leveling/import. */
export const LevelImportInput = z
  .object({
    format: z.enum(IMPORT_FORMATS, { error: 'must be csv or mee6' }),
    content: z
      .string({ error: 'must be text' })
      .min(1, 'is empty: pick a file')
      .max(MAX_IMPORT_CHARS, `must be at most ${MAX_IMPORT_CHARS.toLocaleString('en-US')} characters: split the file`),
  })
  .strict();
export type LevelImportInput = z.input<typeof LevelImportInput>;

/** One member of an import preview: who, from, to. */
export const ImportPreviewRowSchema = z.object({
  line: z.number().int(),
  userId: z.string(),
  username: z.string(),
  fromXp: z.number().int(),
  fromLevel: z.number().int(),
  toXp: z.number().int(),
  toLevel: z.number().int(),
});
export type ImportPreviewRow = z.infer<typeof ImportPreviewRowSchema>;

/** What an import would do. */
export const ImportPreviewSchema = z.object({
  rows: z.array(ImportPreviewRowSchema),
  /** Members in the file. */
  total: z.number().int(),
  /** Of them, members whose XP changes. */
  changed: z.number().int(),
  /** Of them, members with no XP here yet. */
  added: z.number().int(),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

/** GET /leveling/adjustments?page= (from 1). */
export const XpAdjustmentsQuery = z.object({
  page: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(1),
});
