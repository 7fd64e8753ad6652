import * as z from 'zod';
import { Snowflake } from './auth';
import { confirmRoleIds, decimal, flag, pageQuery, wholeNumber } from './fields';
import { LEVEL_UP_MESSAGE_DEFAULTS, LevelUpMessageSettingsSchema } from './level-up-messages';
import { XP_RULES_DEFAULTS, XpRulesSettingsSchema } from './xp-rules';

/** The Leveling System's settings (spec sections 2, 3, 7 and 9), with server-side ranges. */
export const LevelingSettingsSchema = z.object({
  levelingEnabled: flag(),
  /** Coins credited at each level-up. */
  levelUpBonus: wholeNumber(0, 1_000_000),
  /** Seconds between two messages that earn XP. */
  xpCooldown: wholeNumber(0, 86_400),
  /** Off: level-ups are announced nowhere (kept from before the destinations; on keeps its meaning). */
  levelUpAnnouncements: flag(),
  textMultiplier: decimal(0, 10),
  voiceMultiplier: decimal(0, 10),
  weekendMultiplier: decimal(0, 10),
  boostMultiplier: decimal(0, 10),
  /** Role rewards stack (a member keeps every reward up to their level) or replace (only the highest). */
  levelRewardsStack: flag(),
  // Issue 25: where, how and when level-ups are announced; channels and roles with their own XP rules.
  ...LevelUpMessageSettingsSchema.shape,
  ...XpRulesSettingsSchema.shape,
});
export type LevelingSettings = z.infer<typeof LevelingSettingsSchema>;

/** Defaults of spec section 9. */
export const LEVELING_DEFAULTS: LevelingSettings = {
  levelingEnabled: true,
  levelUpBonus: 100,
  xpCooldown: 60,
  levelUpAnnouncements: true,
  textMultiplier: 1,
  voiceMultiplier: 0.5,
  weekendMultiplier: 1.5,
  boostMultiplier: 2,
  levelRewardsStack: true,
  ...LEVEL_UP_MESSAGE_DEFAULTS,
  ...XP_RULES_DEFAULTS,
};

/** Spec section 8's leveling save toasts. */
export const LEVELING_MESSAGES = {
  saved: { title: 'Settings Saved', description: 'Leveling settings have been updated successfully.' },
  failedTitle: 'Save Failed',
  failedFallback: 'Failed to save leveling settings.',
} as const;

// The level curve lives on its own (no zod), for the store writer's thread too.
export { FIRST_LEVEL, levelFromTotal, totalXpForLevel, XP_PER_MESSAGE, xpToNextLevel } from './level-curve';

/** One row of the leaderboard (spec section 3, plus rank and id). */
export const LeaderboardEntrySchema = z.object({
  rank: z.number().int(),
  userId: z.string(),
  username: z.string(),
  level: z.number().int(),
  totalXp: z.number().int(),
  messagesCount: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

/** GET /leaderboard/levels?page=&pageSize= (the top 10 by default). */
export const LeaderboardQuery = pageQuery(100, 10);
export const LeaderboardPageSchema = z.object({
  entries: z.array(LeaderboardEntrySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type LeaderboardPage = z.infer<typeof LeaderboardPageSchema>;

/** GET /leveling/stats: the page's cards and its chart. */
export const LevelingStatsSchema = z.object({
  totalUsers: z.number().int(),
  highestLevel: z.number().int(),
  /** XP earned per day, last 30 days, oldest first. */
  daily: z.array(z.object({ date: z.string(), xp: z.number().int() })),
});
export type LevelingStats = z.infer<typeof LevelingStatsSchema>;

/** A role reward: reaching `level` gives `roleId`. */
export const LevelRewardSchema = z.object({ id: z.number().int(), level: z.number().int(), roleId: z.string(), roleName: z.string().nullable() });
export type LevelReward = z.infer<typeof LevelRewardSchema>;
export const LevelRewardInput = z.object({ level: wholeNumber(2, 1000), roleId: Snowflake, confirmRoleIds: confirmRoleIds() }).strict();
export type LevelRewardInput = z.input<typeof LevelRewardInput>;

/** A member's rank card: level, XP into it and to the next, place on the leaderboard, coins. */
export const ProfileSchema = z.object({
  userId: z.string(),
  username: z.string().nullable(),
  level: z.number().int(),
  xp: z.number().int(),
  xpToNext: z.number().int(),
  totalXp: z.number().int(),
  messagesCount: z.number().int(),
  /** 1 for the top; null before the first XP. */
  rank: z.number().int().nullable(),
  balance: z.number().int(),
  totalEarned: z.number().int(),
  /** The server's currency name, for members who cannot read the settings. */
  currencyName: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;
