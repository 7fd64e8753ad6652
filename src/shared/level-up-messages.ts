// Level-up messages (issue 25, point 3): where the bot congratulates a member, with what words
// and at which levels. One pure renderer serves the bot and the dashboard's live preview.
import * as z from 'zod';
import { optionalId, wholeNumber } from './fields';

/** Where a level-up is announced when announcements are on (off is "nowhere": `levelUpAnnouncements`). */
export const LEVEL_UP_DESTINATIONS = ['levelled', 'channel', 'dm'] as const;
export type LevelUpDestination = (typeof LEVEL_UP_DESTINATIONS)[number];

/** At which levels: every one, every Nth, or only those with a role reward. */
export const LEVEL_UP_WHEN = ['every', 'nth', 'rewards'] as const;
export type LevelUpWhen = (typeof LEVEL_UP_WHEN)[number];

/** What a level-up message can say. `{user}` is the only one that pings. */
export const LEVEL_UP_PLACEHOLDERS = [
  { token: '{user}', meaning: 'mentions the member (only they are pinged)' },
  { token: '{level}', meaning: 'the level reached' },
  { token: '{server}', meaning: 'the server name' },
  { token: '{reward}', meaning: 'the role reward of that level, if any' },
  { token: '{bonus}', meaning: 'the coins credited, if any' },
] as const;

const KNOWN = new Set<string>(LEVEL_UP_PLACEHOLDERS.map((placeholder) => placeholder.token));
const TOKEN = /\{[^{}\s]{1,32}\}/g;

/** The placeholders a template uses that do not exist, each once, in order. */
export function unknownPlaceholders(template: string): string[] {
  return [...new Set(template.match(TOKEN) ?? [])].filter((token) => !KNOWN.has(token));
}

/** The words naming unknown placeholders (shared by the schema and the dashboard), or null. */
export function placeholderProblem(template: string): string | null {
  const unknown = unknownPlaceholders(template);
  if (unknown.length === 0) return null;
  const known = LEVEL_UP_PLACEHOLDERS.map((placeholder) => placeholder.token);
  const list = `${known.slice(0, -1).join(', ')} or ${known.at(-1) ?? ''}`;
  return `uses ${unknown.join(', ')}, which ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'}; use ${list}`;
}

/** The longest template (Discord's 2,000 characters leave room for the filled-in placeholders). */
export const LEVEL_UP_MESSAGE_MAX = 1500;

/** The template field: trimmed text whose every `{...}` is a known placeholder. */
const levelUpTemplate = () =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, 'is required')
    .max(LEVEL_UP_MESSAGE_MAX, `must be at most ${LEVEL_UP_MESSAGE_MAX} characters`)
    .superRefine((template, ctx) => {
      const problem = placeholderProblem(template);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** The level-up message settings (part of the leveling slice). */
export const LevelUpMessageSettingsSchema = z.object({
  levelUpDestination: z.enum(LEVEL_UP_DESTINATIONS, { error: 'must be levelled, channel or dm' }),
  /** The fixed channel, when the destination is `channel`. */
  levelUpChannelId: optionalId(),
  levelUpMessage: levelUpTemplate(),
  levelUpWhen: z.enum(LEVEL_UP_WHEN, { error: 'must be every, nth or rewards' }),
  /** N of "every Nth level". */
  levelUpEveryN: wholeNumber(2, 100),
});
export type LevelUpMessageSettings = z.infer<typeof LevelUpMessageSettingsSchema>;

/** Today's announcement, as it was before it could be changed: where they levelled, every level. */
export const LEVEL_UP_MESSAGE_DEFAULTS: LevelUpMessageSettings = {
  levelUpDestination: 'levelled',
  levelUpChannelId: null,
  levelUpMessage: '🎉 {user} reached **level {level}**! {bonus}',
  levelUpWhen: 'every',
  levelUpEveryN: 5,
};

/** The fixed destination needs its channel. */
export const LEVEL_UP_MISSING_CHANNEL = 'Please pick the channel level-ups are announced in.';

/** The values a level-up message is filled in with. */
export interface LevelUpValues {
  userId: string;
  level: number;
  server: string;
  /** The reward roles' names for the levels reached, or empty. */
  rewards: readonly string[];
  /** "+100 coins", or empty. */
  bonus: string;
}

/** Fills in the placeholders: `{user}` becomes a mention; unknown ones (refused at save) stay as typed. Trimmed. */
export function renderLevelUp(template: string, values: LevelUpValues): string {
  const replacements: Record<string, string> = {
    '{user}': `<@${values.userId}>`,
    '{level}': String(values.level),
    '{server}': values.server,
    '{reward}': values.rewards.map((name) => `@${name}`).join(', '),
    '{bonus}': values.bonus,
  };
  return template.replace(TOKEN, (token) => replacements[token] ?? token).trim();
}

/** The bonus as the message says it: "+100 coins", or empty for none. */
export function bonusWords(bonus: number, currencyName: string): string {
  return bonus > 0 ? `+${bonus.toLocaleString('en-US')} ${currencyName}` : '';
}

/** A level-up from one level to another, and the levels that carry a role reward. */
export interface LevelUpMoment {
  from: number;
  to: number;
  rewardLevels: readonly number[];
}

/**
 * Whether this level-up is announced: every level; every Nth (one of the levels gained is a
 * multiple of N); or only when one of the levels gained carries a reward. A jump of several levels
 * at once is one announcement, of the level reached.
 */
export function shouldAnnounce(settings: Pick<LevelUpMessageSettings, 'levelUpWhen' | 'levelUpEveryN'>, moment: LevelUpMoment): boolean {
  if (moment.to <= moment.from) return false;
  switch (settings.levelUpWhen) {
    case 'every':
      return true;
    case 'nth': {
      const n = Math.max(1, settings.levelUpEveryN);
      return Math.floor(moment.to / n) > Math.floor(moment.from / n);
    }
    case 'rewards':
      return moment.rewardLevels.some((level) => level > moment.from && level <= moment.to);
  }
}
