// One guild's settings: each feature owns its slice (welcome, leveling, economy, bot), and this
// module composes them into what GET /api/servers/:guildId/settings answers and PUT takes.
import * as z from 'zod';
import { AccessLevelSchema, GRANT_LEVELS } from './access';
import { Snowflake } from './auth';
import { confirmRoleIds, pageQuery } from './fields';
import { baseVersion } from './versions';
import { ApiKeyInput, BOT_DEFAULTS, BotSettingsSchema, StatusMessageInput } from './bot-settings';
import { ECONOMY_DEFAULTS, EconomySettingsSchema } from './economy';
import { LEVELING_DEFAULTS, LevelingSettingsSchema } from './leveling';
import { MODERATION_DEFAULTS, ModerationSettingsSchema } from './moderation';
import { MUSIC_DEFAULTS, MusicSettingsSchema } from './music';
import { RAID_DEFAULTS, RaidSettingsSchema } from './raids';
import { WELCOME_DEFAULTS, WelcomeSettingsSchema } from './welcome';

/** Every guild setting, each slice's fields side by side. */
export const GuildSettingsSchema = z.object({
  ...WelcomeSettingsSchema.shape,
  ...LevelingSettingsSchema.shape,
  ...EconomySettingsSchema.shape,
  ...BotSettingsSchema.shape,
  ...ModerationSettingsSchema.shape,
  ...MusicSettingsSchema.shape,
  ...RaidSettingsSchema.shape,
});
export type GuildSettings = z.infer<typeof GuildSettingsSchema>;
export type SettingKey = keyof GuildSettings;

/** Defaults of spec section 9, merged under what a guild stored. */
export const SETTINGS_DEFAULTS: GuildSettings = {
  ...WELCOME_DEFAULTS,
  ...LEVELING_DEFAULTS,
  ...ECONOMY_DEFAULTS,
  ...BOT_DEFAULTS,
  ...MODERATION_DEFAULTS,
  ...MUSIC_DEFAULTS,
  ...RAID_DEFAULTS,
};

/** The keys of every guild setting. */
export const SETTING_KEYS = Object.keys(SETTINGS_DEFAULTS) as SettingKey[];

/**
 * PUT /api/servers/:guildId/settings: any subset (each page sends only what the person changed),
 * plus the write-only API key, the bot-wide status message and the version the page loaded (a save
 * that would undo a change made meanwhile is refused, see src/shared/versions). Unknown fields are
 * refused by name.
 */
export const SettingsUpdateSchema = GuildSettingsSchema.partial()
  .extend({ apiKey: ApiKeyInput.optional(), statusMessage: StatusMessageInput.optional(), confirmRoleIds: confirmRoleIds(), baseVersion: baseVersion() })
  .strict();
export type SettingsUpdate = z.input<typeof SettingsUpdateSchema>;
export type ParsedSettingsUpdate = z.output<typeof SettingsUpdateSchema>;

/** GET /api/servers/:guildId/settings: every setting merged over the defaults, and what is not a plain setting. */
export const SettingsViewSchema = GuildSettingsSchema.extend({
  /** The last 4 characters of the API key, or null when none is set (the key itself is never sent). */
  apiKeyLast4: z.string().nullable(),
  /** The bot's status message (bot-wide). */
  statusMessage: z.string().nullable(),
  /** Whether this user may change the status message, and why not. */
  statusEditable: z.boolean(),
  statusLockedReason: z.string().nullable(),
  /** This user's access to the guild's dashboard (viewers see the page read-only). */
  access: AccessLevelSchema,
  /** Counts the settings' writes: a page sends it back as `baseVersion` with its save. */
  version: z.number().int(),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

/** One field of a recorded change; secrets are masked. */
export const SettingChangeSchema = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() });
export type SettingChange = z.infer<typeof SettingChangeSchema>;

/** What kind of change a history entry records. */
export const HISTORY_KINDS = ['update', 'restore', 'import', 'reset', 'grant', 'revoke', 'economy'] as const;

/** One entry of GET /api/servers/:guildId/audit-log. */
export const HistoryEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(HISTORY_KINDS),
  summary: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
  changes: z.array(SettingChangeSchema),
  /** Whether the settings can be put back as they were after this change. */
  restorable: z.boolean(),
  createdAt: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** GET /api/servers/:guildId/audit-log?page=&pageSize= */
export const HistoryQuery = pageQuery(100, 20);
export const HistoryPageSchema = z.object({
  entries: z.array(HistoryEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

/** The export file's version (spec section 9). */
export const EXPORT_VERSION = '1.0.0';

/** The Export Data file (spec section 3): the settings (no secrets), when, and the version. */
export const ExportFileSchema = z.object({
  version: z.literal(EXPORT_VERSION, { error: `must be ${EXPORT_VERSION}` }),
  exportedAt: z.string(),
  serverSettings: z.record(z.string(), z.unknown()),
});
export type ExportFile = z.infer<typeof ExportFileSchema>;

/** POST /api/servers/:guildId/settings/import: the parsed file, and whether to apply it or only preview. */
export const ImportInput = z.object({ file: z.unknown(), apply: z.boolean().default(false), confirmRoleIds: confirmRoleIds() }).strict();

/** POST /settings/history/:entryId/restore: the dangerous roles the restored version hands out, once confirmed. */
export const RestoreInput = z.object({ confirmRoleIds: confirmRoleIds() }).strict();
/** What an import would change (dry run) or changed. */
export const ImportResultSchema = z.object({ applied: z.boolean(), changes: z.array(SettingChangeSchema) });
export type ImportResult = z.infer<typeof ImportResultSchema>;

/** The Backup Settings file (spec section 3). */
export const BackupFileSchema = z.object({
  timestamp: z.string(),
  serverName: z.string(),
  botVersion: z.string(),
  settings: z.record(z.string(), z.unknown()),
});
export type BackupFile = z.infer<typeof BackupFileSchema>;

/** A delegated dashboard access grant, as listed. */
export const GrantSchema = z.object({
  id: z.number().int(),
  subjectType: z.enum(['role', 'member']),
  subjectId: z.string(),
  /** The role's or member's name, when the guild still has them. */
  subjectName: z.string().nullable(),
  level: z.enum(GRANT_LEVELS),
  expiresAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type GrantView = z.infer<typeof GrantSchema>;

/** POST /api/servers/:guildId/access */
export const GrantInput = z
  .object({
    subjectType: z.enum(['role', 'member'], { error: 'must be role or member' }),
    subjectId: Snowflake,
    level: z.enum(GRANT_LEVELS, { error: 'must be view or edit' }),
    expiresAt: z.iso.datetime({ offset: true, error: 'must be a date and time with its time zone' }).nullable().default(null),
  })
  .strict();
export type GrantInput = z.input<typeof GrantInput>;
