import { InvalidInput, NotFound } from '../../core/errors';
import type { GuildAccess } from '../../core/access';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import { askDiscord } from '../../bot/discord-errors';
import {
  ExportFileSchema,
  EXPORT_VERSION,
  GuildSettingsSchema,
  SETTINGS_DEFAULTS,
  type BackupFile,
  type ExportFile,
  type GuildSettings,
  type ImportResult,
  type ParsedSettingsUpdate,
  type SettingChange,
  type SettingKey,
  type SettingsView,
} from '../../shared/settings';
import { zodFieldErrors } from '../../shared/zod-fields';
import { checkGuildIds, checkRoleHandouts, checkRules, checkWebhookUrl, settingsHandouts } from '../../core/checks';
import { readStatus, setStatus, statusLock } from './presence';
import { refuseStaleSave } from '../../core/versions';
import { guildValueWords } from '../../core/value-words';
import { changedKeys, type HistoryKind, type StoredSettings } from '../../db/settings-store';
import type { Actor } from '../../core/actor';

/** Settings whose values are secrets or tokens: masked in the history. */
const SECRET_FIELDS = new Set(['apiKey', 'webhookUrl']);

/** A value as the history shows it: secrets masked to their last 4 characters. */
function masked(field: string, value: unknown): unknown {
  if (!SECRET_FIELDS.has(field) || typeof value !== 'string' || !value) return value;
  if (field === 'webhookUrl') {
    try {
      const url = new URL(value);
      return `${url.origin}/…${value.slice(-4)}`;
    } catch {
      return `…${value.slice(-4)}`;
    }
  }
  return `••••${value.slice(-4)}`;
}

/** One line for the history list: "Changed welcomeEnabled, welcomeChannelId". */
function summarize(kind: HistoryKind, changes: SettingChange[], note?: string): string {
  const fields = changes.map((change) => change.field);
  const list = fields.length > 6 ? `${fields.slice(0, 6).join(', ')} and ${fields.length - 6} more` : fields.join(', ');
  switch (kind) {
    case 'restore':
      return `${note ?? 'Restored an earlier version'}: ${list || 'nothing differed'}`;
    case 'import':
      return `Imported settings: ${list}`;
    case 'reset':
      return `Reset to defaults: ${list || 'already at defaults'}`;
    default:
      return `Changed ${list}`;
  }
}

/** Sets the bot's nickname in the guild to the display name (no nickname when it equals the bot's username). */
async function applyDisplayName(services: Services, guild: GuildSummary, displayName: string): Promise<void> {
  const me = services.gateway.client?.guilds.cache.get(guild.id)?.members.me;
  if (!me) throw new NotFound('The bot is not in that server.');
  const nickname = displayName === me.user.username ? null : displayName;
  if (me.nickname === nickname) return;
  const botName = me.displayName;
  await askDiscord(
    () => me.setNickname(nickname, 'Bot Settings: display name'),
    botName,
    (code) =>
      code === 50013
        ? `${botName} may not change its nickname in ${guild.name}. Give its role the Change Nickname permission in Server Settings → Roles.`
        : undefined,
  );
}

/** What a write may carry besides plain settings. */
interface WriteOptions {
  kind: HistoryKind;
  /** The full settings to end with, instead of a patch over the current ones (restore, reset, import). */
  replace?: boolean;
  note?: string;
  /** Only check and report what would change; store nothing. */
  dryRun?: boolean;
  /** Roles with staff permissions the person confirmed handing out (see checkRoleHandouts). */
  confirmedRoleIds?: readonly string[];
  /** The version of the settings the person's page loaded: a change meanwhile that this write would undo refuses it. */
  baseVersion?: number | undefined;
}

/** What a write sets: any settings, the write-only API key and the bot-wide status message. */
export type SettingsInput = Omit<ParsedSettingsUpdate, 'confirmRoleIds' | 'baseVersion'>;

/**
 * Changes a guild's settings, as one rule for every way in (the Settings pages, restore, import,
 * reset): the cross-field rules, every changed id against the live guild, the webhook target,
 * the status message's owner, then the Discord side (the bot's nickname, its presence), and only
 * then the store, with a history entry of each changed field (secrets masked). Nothing is stored
 * when any check or Discord refuses. Returns the fields that changed.
 */
export async function writeSettings(
  services: Services,
  guild: GuildSummary,
  input: SettingsInput,
  actor: Actor,
  options: WriteOptions,
): Promise<SettingChange[]> {
  const { apiKey, statusMessage, ...patch } = input;
  const currentStatus = await readStatus(services);
  const statusChanges = statusMessage !== undefined && statusMessage !== currentStatus;
  if (statusChanges && actor.userId) {
    const lock = await statusLock(services, actor.userId);
    if (lock) throw InvalidInput.field('statusMessage', lock, lock);
  }
  let result: SettingChange[] = [];
  const effects = services.features.flatMap((feature) => feature.settingsEffects ?? []);
  await services.settings.change(guild.id, async (current) => {
    if (options.baseVersion !== undefined && options.baseVersion < current.version) {
      refuseStaleSave({
        meanwhile: await services.settings.writesSince(guild.id, options.baseVersion),
        saving: patch,
        stored: current.settings,
        version: current.version,
        describe: guildValueWords(services, guild.id),
      });
    }
    const next = { ...(options.replace ? SETTINGS_DEFAULTS : current.settings), ...patch } as GuildSettings;
    checkRules(next);
    const changed = changedKeys(current.settings, next);
    const currentKey = current.apiKeySealed ? services.secrets.open(current.apiKeySealed) : null;
    const keyChanges = apiKey !== undefined && apiKey !== currentKey;
    const changes: SettingChange[] = changed.map((field) => ({ field, from: masked(field, current.settings[field]), to: masked(field, next[field]) }));
    if (keyChanges) changes.push({ field: 'apiKey', from: masked('apiKey', currentKey), to: masked('apiKey', apiKey) });
    if (statusChanges) changes.push({ field: 'statusMessage', from: currentStatus, to: statusMessage });
    result = changes;
    // Effects run for the settings that changed, and again where Discord drifted (a deleted rules
    // message) when the page that owns them saves, even without a change.
    const touched = effects.filter((effect) => effect.keys.some((key) => changed.includes(key)));
    const sent = new Set(Object.keys(options.replace ? next : patch));
    const stale = [];
    for (const effect of effects) {
      if (touched.includes(effect) || !effect.stale || !effect.keys.some((key) => sent.has(key))) continue;
      if (await effect.stale(services, guild, next)) stale.push(effect);
    }
    if (changes.length === 0 && stale.length === 0) return null;
    const apiKeySealed = !keyChanges ? current.apiKeySealed : apiKey ? services.secrets.seal(apiKey) : null;
    if (next.webhookUrl && !apiKeySealed) throw InvalidInput.field('apiKey', 'is needed to sign webhook deliveries; set one, or clear the webhook URL');
    checkGuildIds(services, guild.id, next, changed);
    await checkRoleHandouts(
      services,
      guild.id,
      { actorId: actor.userId, confirmed: options.confirmedRoleIds ?? [], preview: options.dryRun === true },
      settingsHandouts(next, changed),
    );
    for (const effect of [...touched, ...stale]) await effect.check?.(services, guild, next);
    if (next.webhookUrl && changed.includes('webhookUrl')) await checkWebhookUrl(services, next.webhookUrl);
    if (options.dryRun) return null;
    if (changed.includes('displayName')) await applyDisplayName(services, guild, next.displayName);
    if (statusChanges && actor.userId) await setStatus(services, actor.userId, statusMessage ?? null);
    for (const effect of [...touched, ...stale]) await effect.apply?.(services, guild, next, current.settings);
    if (changes.length === 0) return null;
    const stored: StoredSettings = { settings: next, apiKeySealed, version: current.version };
    return { next: stored, record: { actor, kind: options.kind, summary: summarize(options.kind, changes, options.note), changes } };
  });
  return result;
}

/** GET /settings: every setting merged over the defaults, the key's last 4, the status and whether this user may change it. */
export async function settingsView(services: Services, guildId: string, access: GuildAccess): Promise<SettingsView> {
  const stored = await services.settings.stored(guildId);
  const key = stored.apiKeySealed ? services.secrets.open(stored.apiKeySealed) : null;
  const lock = await statusLock(services, access.userId);
  return {
    ...stored.settings,
    apiKeyLast4: key ? key.slice(-4) : null,
    statusMessage: await readStatus(services),
    statusEditable: lock === null,
    statusLockedReason: lock,
    access: access.level,
    version: stored.version,
  };
}

/** Puts the settings back as they were right after history entry `entryId` (itself recorded). */
export async function restoreSettings(
  services: Services,
  guild: GuildSummary,
  entryId: number,
  actor: Actor,
  confirmedRoleIds: readonly string[] = [],
): Promise<SettingChange[]> {
  const snapshot = await services.settings.snapshot(guild.id, entryId);
  if (!snapshot) throw new NotFound('That history entry does not exist or holds no settings to restore.');
  return writeSettings(services, guild, snapshot, actor, {
    kind: 'restore',
    replace: true,
    note: `Restored the settings as of change #${entryId}`,
    confirmedRoleIds,
  });
}

/** Reset Bot: every setting back to its default, the API key cleared (recorded). */
export async function resetSettings(services: Services, guild: GuildSummary, actor: Actor): Promise<SettingChange[]> {
  return writeSettings(services, guild, { ...SETTINGS_DEFAULTS, apiKey: null }, actor, { kind: 'reset', replace: true });
}

/** The Export Data file: the guild's settings (no secrets, no bot-wide status), when, and the version. */
export async function exportSettings(services: Services, guildId: string): Promise<ExportFile> {
  const settings = await services.settings.get(guildId);
  return { version: EXPORT_VERSION, exportedAt: services.clock.now().toISOString(), serverSettings: { ...settings } };
}

/** The Backup Settings file. */
export async function backupSettings(services: Services, guild: GuildSummary): Promise<BackupFile> {
  const settings = await services.settings.get(guild.id);
  return { timestamp: services.clock.now().toISOString(), serverName: guild.name, botVersion: services.meta.version, settings: { ...settings } };
}

/** The settings part of an import: the schema of every setting, each optional, unknown fields refused. */
const ImportedSettings = GuildSettingsSchema.partial().strict();

/**
 * Import Data: the file is checked with the export's schema and every setting with its own (an
 * unknown or bad field is named), then compared with the current settings. A dry run answers
 * what would change (after every check a save makes); applying writes it, recorded as an import.
 */
export async function importSettings(
  services: Services,
  guild: GuildSummary,
  file: unknown,
  apply: boolean,
  actor: Actor,
  confirmedRoleIds: readonly string[] = [],
): Promise<ImportResult> {
  const parsedFile = ExportFileSchema.safeParse(file);
  if (!parsedFile.success)
    throw new InvalidInput(zodFieldErrors(parsedFile.error, { prefix: 'file' }), 'This is not an export file of this bot (version 1.0.0).');
  const parsed = ImportedSettings.safeParse(parsedFile.data.serverSettings);
  if (!parsed.success) throw new InvalidInput(zodFieldErrors(parsed.error, { prefix: 'serverSettings' }));
  const changes = await writeSettings(services, guild, parsed.data as Partial<Record<SettingKey, unknown>> as SettingsInput, actor, {
    kind: 'import',
    dryRun: !apply,
    confirmedRoleIds,
  });
  return { applied: apply && changes.length > 0, changes };
}
