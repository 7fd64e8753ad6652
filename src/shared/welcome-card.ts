// Goodbye messages and the welcome card (issue 25, point 5): their settings, placeholders and limits,
// shared by the server and the Welcome page.
import * as z from 'zod';
import { flag, optionalId, text } from './fields';

/** The placeholders a goodbye may use: those of the welcome (the mention pings nobody: they left). */
export const GOODBYE_PLACEHOLDERS = [
  { token: '{user}', meaning: 'mentions the member who left (nobody is pinged)' },
  { token: '{username}', meaning: 'their username' },
  { token: '{server}', meaning: 'the server name' },
  { token: '{membercount}', meaning: 'the member count after they left' },
] as const;

/** The placeholders the card's title may use (an image cannot mention anyone). */
export const CARD_PLACEHOLDERS = [
  { token: '{username}', meaning: 'their username' },
  { token: '{server}', meaning: 'the server name' },
  { token: '{membercount}', meaning: 'the member count' },
] as const;

/**
 * The first `{word}` of a template that is not one of `allowed`, as a sentence ("{usr} is not a
 * placeholder; use {user}, {username} ..."), or null when every placeholder is known.
 */
export function unknownPlaceholderProblem(template: string, allowed: readonly { token: string }[]): string | null {
  const tokens = allowed.map((placeholder) => placeholder.token);
  const unknown = (template.match(/\{[^{}\s]*\}/g) ?? []).find((token) => !tokens.includes(token));
  return unknown ? `${unknown} is not a placeholder; use ${tokens.join(', ')}` : null;
}

/** Text with only the given placeholders. */
const template = (max: number, allowed: readonly { token: string }[]) =>
  text(max).superRefine((value, ctx) => {
    const problem = unknownPlaceholderProblem(value, allowed);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A colour written #rrggbb. */
const colour = () => z.string({ error: 'must be a colour like #5865f2' }).regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #5865f2');

/** The card's title: at most this many characters before the placeholders are filled in. */
export const CARD_TITLE_MAX = 80;

/** The goodbye's and the card's settings. */
export const WelcomeCardSettingsShape = {
  goodbyeEnabled: flag(),
  goodbyeChannelId: optionalId(),
  goodbyeMessage: template(2000, GOODBYE_PLACEHOLDERS),
  /** Attach the welcome card (an image) to the welcome message. */
  welcomeCardEnabled: flag(),
  welcomeCardTitle: template(CARD_TITLE_MAX, CARD_PLACEHOLDERS),
  welcomeCardBackground: colour(),
  welcomeCardAccent: colour(),
};

/** Their defaults: both off. */
export const WELCOME_CARD_DEFAULTS = {
  goodbyeEnabled: false,
  goodbyeChannelId: null,
  goodbyeMessage: '{username} has left {server}. We are {membercount} now.',
  welcomeCardEnabled: false,
  welcomeCardTitle: 'Welcome to {server}!',
  welcomeCardBackground: '#23272a',
  welcomeCardAccent: '#5865f2',
} as const;

/** A goodbye switched on needs its channel. */
export const GOODBYE_MISSING_CHANNEL = 'Please pick the goodbye channel when goodbye messages are enabled.';

/** The card's size in pixels. */
export const CARD_WIDTH = 1000;
export const CARD_HEIGHT = 360;

/** Fills in the card title's placeholders. */
export function renderCardTitle(title: string, values: { username: string; server: string; memberCount: number }): string {
  const replacements: Record<string, string> = {
    '{username}': values.username,
    '{server}': values.server,
    '{membercount}': values.memberCount.toLocaleString('en-US'),
  };
  return title.replace(/\{(?:username|server|membercount)\}/g, (token) => replacements[token] ?? token);
}

/** GET /welcome/card/preview: the draft's title and colours (the saved ones where absent). */
export const WelcomeCardPreviewQuery = z
  .object({
    title: WelcomeCardSettingsShape.welcomeCardTitle.optional(),
    background: colour().optional(),
    accent: colour().optional(),
  })
  .strict();
export type WelcomeCardPreviewQuery = z.infer<typeof WelcomeCardPreviewQuery>;
