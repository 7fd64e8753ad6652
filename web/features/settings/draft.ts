// The Bot Settings form: which settings the page edits, its editable copy, and the PUT body it sends.
import type { SettingsUpdate, SettingsView } from '../../../src/shared/settings';

/** The settings the Bot Settings page shows and saves (spec section 2, "Bot Settings"). */
export const PAGE_FIELDS = [
  'displayName',
  'commandPrefix',
  'autoRoleEnabled',
  'memberRoleId',
  'welcomeEnabled',
  'levelingEnabled',
  'economyEnabled',
  'automodEnabled',
  'musicEnabled',
  'logChannelId',
  'notifyJoinLeave',
  'notifyLevelUp',
  'notifyModeration',
  'notifyErrors',
  'webhookUrl',
  'rateLimitPerMinute',
  'embedFooter',
] as const;
type PageField = (typeof PAGE_FIELDS)[number];

/** The form's copy: text fields as typed (numbers too), the key only when one is typed. */
export type Draft = { [K in PageField]: SettingsView[K] extends number ? string : SettingsView[K] extends string | null ? string : SettingsView[K] } & {
  statusMessage: string;
  apiKey: string;
};

/** The form filled from the server's settings. */
export function draftOf(view: SettingsView): Draft {
  const text = (value: string | null) => value ?? '';
  return {
    displayName: view.displayName,
    commandPrefix: view.commandPrefix,
    autoRoleEnabled: view.autoRoleEnabled,
    memberRoleId: text(view.memberRoleId),
    welcomeEnabled: view.welcomeEnabled,
    levelingEnabled: view.levelingEnabled,
    economyEnabled: view.economyEnabled,
    automodEnabled: view.automodEnabled,
    musicEnabled: view.musicEnabled,
    logChannelId: text(view.logChannelId),
    notifyJoinLeave: view.notifyJoinLeave,
    notifyLevelUp: view.notifyLevelUp,
    notifyModeration: view.notifyModeration,
    notifyErrors: view.notifyErrors,
    webhookUrl: text(view.webhookUrl),
    rateLimitPerMinute: String(view.rateLimitPerMinute),
    embedFooter: text(view.embedFooter),
    statusMessage: text(view.statusMessage),
    apiKey: '',
  };
}

/**
 * The PUT body: every field of the page (the server records only what changed), empty text as
 * null, the rate limit as a number (NaN stays NaN: the server names the field), the key only when
 * typed, the status only when it changed and this user may change it.
 */
export function bodyOf(draft: Draft, view: SettingsView): SettingsUpdate {
  const orNull = (value: string) => (value.trim() ? value.trim() : null);
  return {
    displayName: draft.displayName,
    commandPrefix: draft.commandPrefix,
    autoRoleEnabled: draft.autoRoleEnabled,
    memberRoleId: orNull(draft.memberRoleId),
    welcomeEnabled: draft.welcomeEnabled,
    levelingEnabled: draft.levelingEnabled,
    economyEnabled: draft.economyEnabled,
    automodEnabled: draft.automodEnabled,
    musicEnabled: draft.musicEnabled,
    logChannelId: orNull(draft.logChannelId),
    notifyJoinLeave: draft.notifyJoinLeave,
    notifyLevelUp: draft.notifyLevelUp,
    notifyModeration: draft.notifyModeration,
    notifyErrors: draft.notifyErrors,
    webhookUrl: orNull(draft.webhookUrl),
    rateLimitPerMinute: Number.parseInt(draft.rateLimitPerMinute, 10),
    embedFooter: orNull(draft.embedFooter),
    ...(draft.apiKey ? { apiKey: draft.apiKey } : {}),
    ...(view.statusEditable && orNull(draft.statusMessage) !== view.statusMessage ? { statusMessage: orNull(draft.statusMessage) } : {}),
  };
}
