import * as z from 'zod';
import { AccessLevelSchema } from './access';
import { DemoLoginId } from './demo-login';

/** How many digits a Discord id has: the shortest and the longest Discord has made or will make for decades. */
export const SNOWFLAKE_DIGITS = { min: 15, max: 21 } as const;
/** The message for a value that is no Discord id; '123' is digits, so the length is said too. */
export const SNOWFLAKE_MESSAGE = `must be a Discord id (${SNOWFLAKE_DIGITS.min} to ${SNOWFLAKE_DIGITS.max} digits)`;
/** A Discord id written out: digits only, SNOWFLAKE_DIGITS of them. */
export const SNOWFLAKE_PATTERN = new RegExp(`^\\d{${SNOWFLAKE_DIGITS.min},${SNOWFLAKE_DIGITS.max}}$`);
/** Whether text is a Discord id (the same rule as the Snowflake schema, for code that reads raw text). */
export const isSnowflake = (text: string) => SNOWFLAKE_PATTERN.test(text);
/** A Discord snowflake id as a string. */
export const Snowflake = z.string().regex(SNOWFLAKE_PATTERN, SNOWFLAKE_MESSAGE);

/** GET /api/auth/me: the signed-in user (spec section 3). `id` is our user id. */
export const CurrentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  discriminator: z.string(),
  discordId: z.string(),
  avatar: z.string().nullable(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** POST /api/auth/discord/callback body: the code and the state from the authorize redirect. */
export const DiscordCallbackInput = z
  .object({
    code: z.string().trim().min(1, 'is required').max(512, 'is too long'),
    state: z.string().trim().min(1, 'is required').max(512, 'is too long'),
  })
  .strict();
export type DiscordCallbackInput = z.infer<typeof DiscordCallbackInput>;

/** POST /api/auth/discord/callback and mock-login answer: the user, and where to go next. */
export const SignInResultSchema = z.object({ user: CurrentUserSchema, redirectTo: z.string() });
export type SignInResult = z.infer<typeof SignInResultSchema>;

/** POST /api/auth/mock-login body (sandbox mode only). */
export const MockLoginInput = z
  .object({
    username: z.string().trim().min(2, 'must be at least 2 characters').max(32, 'must be at most 32 characters'),
    id: DemoLoginId,
    discriminator: z
      .string()
      .regex(/^\d{1,4}$/, 'must be up to 4 digits')
      .default('0000'),
  })
  .strict();
export type MockLoginInput = z.infer<typeof MockLoginInput>;

/** One server of GET /api/auth/servers (spec section 3). */
export const ServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  hasBot: z.boolean(),
  /** Decimal string bitmask of the user's permissions in the guild. */
  permissions: z.string(),
  memberCount: z.number().int().nullable(),
  owner: z.boolean(),
  /** What the user may do in this guild's dashboard (delegated view or edit access included). */
  access: AccessLevelSchema,
});
export type Server = z.infer<typeof ServerSchema>;
export const ServerListSchema = z.array(ServerSchema);

/** GET /api/servers/stats: totals over the guilds the user manages that have the bot. */
export const ServerStatsSchema = z.object({
  totalMembers: z.number().int(),
  totalCommands: z.number().int(),
  activeUsers: z.number().int(),
  totalCurrency: z.number().int(),
});
export type ServerStats = z.infer<typeof ServerStatsSchema>;

/** Sign-in messages of spec section 8 (title / description). */
export const SIGN_IN_MESSAGES = {
  providerError: { title: 'Authentication Failed', description: 'Failed to authenticate with Discord. Please try again.' },
  missingCode: { title: 'Invalid Request', description: 'No authorization code received from Discord.' },
  exchangeFailed: { title: 'Authentication Error', description: 'Failed to complete Discord authentication. Please try again.' },
} as const;

/** Success toast after sign-in: 'Welcome to {name}!' / 'Successfully logged in as {username}'. */
export function signInSuccessMessage(botName: string, username: string) {
  return { title: `Welcome to ${botName}!`, description: `Successfully logged in as ${username}` };
}
