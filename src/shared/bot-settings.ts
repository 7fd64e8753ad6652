import * as z from 'zod';
import { flag, optionalId, optionalText, text, wholeNumber } from './fields';

/** A webhook URL: http(s), no credentials in it, at most 500 characters; empty becomes null. */
const webhookUrl = () =>
  z
    .union([z.literal(''), z.null(), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(500, 'must be at most 500 characters')], {
      error: 'must be an http(s) URL',
    })
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || !/^https?:\/\/[^/]*@/.test(value), 'must not contain a user name or password');

/**
 * What no member can type, or see, in a message: control characters, unpaired surrogates,
 * unassigned, noncharacter and private-use code points, and the invisible ones (zero-width spaces,
 * joiners, bidi marks, fillers, soft hyphens). An emoji's own variation selector, and a joiner
 * between two emoji, are part of what it shows and stay allowed.
 */
const UNTYPABLE = new RegExp(
  [
    '[\\p{Cc}\\p{Cs}\\p{Cn}\\p{Co}]',
    // A variation selector that follows no emoji.
    '(?<!\\p{Emoji})(?:\\u{FE0E}|\\u{FE0F})',
    // A joiner that does not sit between two emoji (a selector or skin tone may end the first).
    '(?<!\\p{Emoji}(?:\\u{FE0F}|\\p{Emoji_Modifier})?)\\u200D',
    '\\u200D(?!\\p{Emoji})',
    // Every other invisible character.
    '(?!\\u{FE0E}|\\u{FE0F}|\\u200D)\\p{Default_Ignorable_Code_Point}',
  ].join('|'),
  'u',
);

/**
 * The text commands' prefix: what a member types at the start of a message, so only what can be
 * typed and seen there. A prefix nobody can type ("a\u0000") would silence every text command.
 */
const commandPrefix = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, 'is required')
    .max(5, 'must be at most 5 characters')
    .regex(/^\S+$/, 'must not contain spaces or line breaks')
    .refine((value) => !UNTYPABLE.test(value), 'must only hold characters a member can type in a message (no control or invisible characters)');

/** Bot Settings (spec section 2): general, feature switches, notifications and advanced options of one guild. */
export const BotSettingsSchema = z.object({
  /** The bot's nickname in this guild. */
  displayName: text(32),
  /** Text commands start with it: !rank, !balance, ... */
  commandPrefix: commandPrefix(),
  /** Give `memberRoleId` to members who join (after verification when verification is on). */
  autoRoleEnabled: flag(),
  memberRoleId: optionalId(),
  automodEnabled: flag(),
  /** Music in voice channels (needs ffmpeg on the bot's host). */
  musicEnabled: flag(),
  /** Where the bot posts the notifications switched on below. */
  logChannelId: optionalId(),
  notifyJoinLeave: flag(),
  notifyLevelUp: flag(),
  notifyModeration: flag(),
  notifyErrors: flag(),
  /** Every notification is also POSTed here as JSON, signed with the API key. */
  webhookUrl: webhookUrl(),
  /** Commands per minute per member, slash and text. */
  rateLimitPerMinute: wholeNumber(1, 600),
  /** Added to every embed the bot posts in this guild. */
  embedFooter: optionalText(2048),
});
export type BotSettings = z.infer<typeof BotSettingsSchema>;

/** Defaults of spec section 9. */
export const BOT_DEFAULTS: BotSettings = {
  displayName: 'AwesomeBot',
  commandPrefix: '!',
  autoRoleEnabled: false,
  memberRoleId: null,
  automodEnabled: false,
  musicEnabled: false,
  logChannelId: null,
  notifyJoinLeave: false,
  notifyLevelUp: true,
  notifyModeration: true,
  notifyErrors: true,
  webhookUrl: null,
  rateLimitPerMinute: 60,
  embedFooter: null,
};

/** The external API key that signs webhook deliveries: write-only (GET shows its last 4 characters). */
export const ApiKeyInput = z.union([z.null(), z.string().regex(/^[\x21-\x7e]{16,128}$/, 'must be 16 to 128 visible characters without spaces')], {
  error: 'must be 16 to 128 visible characters without spaces',
});

/** The bot's status message: its presence, shared by every guild, so only the application's owner may change it. */
export const StatusMessageInput = optionalText(128);

/** The features a command or a listener can belong to, with the setting that switches each and what a member is told when it is off. */
export const FEATURE_SWITCHES = {
  welcome: { setting: 'welcomeEnabled', label: 'Welcome messages', off: 'Welcome messages are turned off in this server.' },
  leveling: { setting: 'levelingEnabled', label: 'Leveling', off: 'Leveling is turned off in this server.' },
  economy: { setting: 'economyEnabled', label: 'Economy', off: 'The economy is turned off in this server.' },
  automod: { setting: 'automodEnabled', label: 'Auto moderation', off: 'Auto moderation is turned off in this server.' },
  music: { setting: 'musicEnabled', label: 'Music commands', off: 'Music commands are turned off in this server. An admin can turn them on in Bot Settings.' },
} as const;
export type FeatureSwitch = keyof typeof FEATURE_SWITCHES;

/** Notifications the bot can post to the log channel (and the webhook), with the switch of each. */
export const NOTIFICATION_EVENTS = {
  memberJoin: { setting: 'notifyJoinLeave', label: 'Member joined' },
  memberLeave: { setting: 'notifyJoinLeave', label: 'Member left' },
  levelUp: { setting: 'notifyLevelUp', label: 'Level up' },
  moderation: { setting: 'notifyModeration', label: 'Moderation alert' },
  error: { setting: 'notifyErrors', label: 'Bot error' },
} as const;
export type NotificationEvent = keyof typeof NOTIFICATION_EVENTS;

/** Spec section 8's Bot Settings toasts. */
export const BOT_SETTINGS_MESSAGES = {
  saved: { title: 'Settings saved', description: 'Your bot settings have been successfully updated.' },
  failed: { title: 'Error', description: 'Failed to save settings. Please try again.' },
  exported: 'Settings Exported',
  imported: 'Settings Imported',
  backedUp: 'Backup Created',
  importFailed: { title: 'Import Failed', description: 'Invalid JSON file format.' },
  resetDone: 'Bot Reset Initiated',
  resetCancelled: 'Reset Cancelled',
} as const;

/** The header and algorithm of webhook signatures: hex HMAC-SHA256 of the raw body with the API key. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Signature-256';
