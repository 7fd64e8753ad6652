import * as z from 'zod';

/**
 * The identity the dashboard's /test-auth form offers for the sandbox's mock login
 * (POST /api/auth/mock-login). The sandbox seeds its demo admin with these values, so the
 * default demo login is that admin (Admin of Sandbox Community, owner of a guild without the bot).
 */
export const DEMO_LOGIN_DEFAULTS = {
  username: 'demo_admin',
  id: '935480000000000001',
  discriminator: '0000',
} as const;

/** Why a demo login id was refused, under the id field. */
export const DEMO_LOGIN_ID_MESSAGE = 'must be a Discord user id: 17 to 20 digits, not starting with 0';

/** The largest id a 64-bit snowflake can hold. */
const MAX_SNOWFLAKE = 2n ** 64n - 1n;

/**
 * The demo login's user id, written as Discord writes one: 17 to 20 digits, no leading zero (which
 * would name the same number twice), at most 64 bits. Which ids the sandbox lets it take is the
 * sandbox demo's own rule (not another user's, nor a server's, role's, channel's...).
 */
export const DemoLoginId = z
  .string({ error: DEMO_LOGIN_ID_MESSAGE })
  .regex(/^[1-9]\d{16,19}$/, DEMO_LOGIN_ID_MESSAGE)
  // zod runs this after a failed regex too: only digits reach BigInt.
  .refine((id) => !/^\d+$/.test(id) || BigInt(id) <= MAX_SNOWFLAKE, DEMO_LOGIN_ID_MESSAGE);
