import * as z from 'zod';
import { flag, optionalId, optionalText, text } from './fields';
import { VERIFICATION_DEFAULTS, VerificationSettingsShape } from './verification';
import { WELCOME_CARD_DEFAULTS, WelcomeCardSettingsShape } from './welcome-card';

/** The Welcome System's and Rule Verification's settings (spec sections 2, 3, 7 and 9). */
export const WelcomeSettingsSchema = z.object({
  welcomeEnabled: flag(),
  welcomeChannelId: optionalId(),
  welcomeMessage: text(2000),
  /** Also send the new member a direct message. */
  welcomeDmEnabled: flag(),
  welcomeDmMessage: text(2000),
  rulesChannelId: optionalId(),
  rulesMessage: optionalText(4000),
  verificationRoleId: optionalId(),
  verificationEnabled: flag(),
  ...WelcomeCardSettingsShape,
  ...VerificationSettingsShape,
});
export type WelcomeSettings = z.infer<typeof WelcomeSettingsSchema>;

/** Defaults of spec section 9. */
export const WELCOME_DEFAULTS: WelcomeSettings = {
  welcomeEnabled: false,
  welcomeChannelId: null,
  welcomeMessage: 'Welcome {user} to our server! 🎉',
  welcomeDmEnabled: false,
  welcomeDmMessage: 'Welcome to {server}, {username}! Have a look at the rules channel to get started.',
  rulesChannelId: null,
  rulesMessage: null,
  verificationRoleId: null,
  verificationEnabled: false,
  ...WELCOME_CARD_DEFAULTS,
  ...VERIFICATION_DEFAULTS,
};

/** Spec section 5: a welcome switched on needs a channel. */
export const WELCOME_MISSING_CHANNEL = {
  title: 'Missing Channel',
  description: 'Please provide a channel ID when welcome messages are enabled.',
} as const;

/** The rule of WELCOME_MISSING_CHANNEL, for the server's check and the pages alike: the channel field's problem, or null. */
export function welcomeChannelProblem(settings: Pick<WelcomeSettings, 'welcomeEnabled' | 'welcomeChannelId'>): string | null {
  return settings.welcomeEnabled && !settings.welcomeChannelId ? WELCOME_MISSING_CHANNEL.description : null;
}

/** Rule verification switched on needs its channel, its role and the rules. */
export const VERIFICATION_MISSING = {
  rulesChannelId: 'Please provide the rules channel when verification is enabled.',
  verificationRoleId: 'Please provide the verification role when verification is enabled.',
  rulesMessage: 'Please write the rules members agree to when verification is enabled.',
} as const;

/** The reaction members add to the rules message to verify (spec section 9: the check mark). */
export const VERIFY_EMOJI = '✅';

/** Spec section 8's toasts of the Welcome and Rule Verification pages. */
export const WELCOME_MESSAGES = {
  saved: { title: 'Settings Saved', description: 'Welcome message settings have been updated successfully.' },
  rulesSaved: { title: 'Settings Updated', description: 'Rule verification settings have been saved successfully.' },
  failed: { title: 'Save Failed', description: 'Failed to update settings' },
} as const;

/** What a welcome message can say about the member who joined. */
export const WELCOME_PLACEHOLDERS = [
  { token: '{user}', meaning: 'mentions the new member' },
  { token: '{username}', meaning: 'their username' },
  { token: '{server}', meaning: 'the server name' },
  { token: '{membercount}', meaning: 'the member count' },
] as const;

/** The values a welcome is filled in with. */
export interface WelcomeValues {
  userId: string;
  username: string;
  server: string;
  memberCount: number;
}

/** Fills in the placeholders: `{user}` becomes a mention (the only one that may ping). */
export function renderWelcome(template: string, values: WelcomeValues): string {
  const replacements: Record<string, string> = {
    '{user}': `<@${values.userId}>`,
    '{username}': values.username,
    '{server}': values.server,
    '{membercount}': values.memberCount.toLocaleString('en-US'),
  };
  return template.replace(/\{(?:user|username|server|membercount)\}/g, (token) => replacements[token] ?? token);
}

/** Discord's longest message. */
export const MESSAGE_MAX = 2000;

/**
 * The longest a welcome can get once filled in for this server: the longest mention, a 32-character
 * username, the server's name, and a member count of up to 25,000,000 (Discord's cap).
 */
export function longestWelcome(template: string, serverName: string): number {
  return renderWelcome(template, { userId: '9'.repeat(20), username: 'x'.repeat(32), server: serverName, memberCount: 25_000_000 }).length;
}

/**
 * A welcome must fit in one Discord message once filled in for this server: what is wrong with the
 * template ("can reach 2,022 characters ..."), or null when it fits.
 */
export function welcomeLengthProblem(template: string, serverName: string): string | null {
  const longest = longestWelcome(template, serverName);
  if (longest <= MESSAGE_MAX) return null;
  return `can reach ${longest.toLocaleString('en-US')} characters once the placeholders are filled in; Discord allows ${MESSAGE_MAX.toLocaleString('en-US')}`;
}

/** One welcome of Recent Welcome Messages. */
export const WelcomeLogEntrySchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  username: z.string(),
  source: z.enum(['join', 'catchup', 'test']),
  status: z.enum(['pending', 'sent', 'failed']),
  error: z.string().nullable(),
  dm: z.enum(['sent', 'closed', 'failed', 'off']),
  /** A link to the posted message. */
  url: z.string().nullable(),
  createdAt: z.string(),
});
export type WelcomeLogEntry = z.infer<typeof WelcomeLogEntrySchema>;

/** POST /api/servers/:guildId/welcome/test: where the test landed. */
export const WelcomeTestResultSchema = z.object({ url: z.string(), messageId: z.string(), channelId: z.string() });
export type WelcomeTestResult = z.infer<typeof WelcomeTestResultSchema>;

/** GET /api/servers/:guildId/verification: the rules message the bot posted, and whether it is still there. */
export const VerificationStatusSchema = z.object({
  rulesMessage: z
    .object({
      channelId: z.string(),
      messageId: z.string(),
      url: z.string(),
      /** False when it was deleted in Discord: the next save posts it again. */
      exists: z.boolean(),
    })
    .nullable(),
});
export type VerificationStatus = z.infer<typeof VerificationStatusSchema>;
