// Field builders shared by the settings slices and other forms: one definition of each kind of
// field, with the limits and the words a person reads when a value is wrong.
import * as z from 'zod';
import { Snowflake, SNOWFLAKE_MESSAGE } from './auth';

/** A limit as people write it: 1,000,000. */
const n = (value: number) => value.toLocaleString('en-US');

/** A whole number between min and max. */
export const wholeNumber = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(min, `must be between ${n(min)} and ${n(max)}`)
    .max(max, `must be between ${n(min)} and ${n(max)}`);

/** A decimal between min and max (multipliers). */
export const decimal = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .min(min, `must be between ${n(min)} and ${n(max)}`)
    .max(max, `must be between ${n(min)} and ${n(max)}`);

/** An on/off switch. */
export const flag = () => z.boolean({ error: 'must be true or false' });

/** Text of 1..max characters, trimmed. */
export const text = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${n(max)} characters`);

/** Optional text of up to max characters; empty becomes null. */
export const optionalText = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .max(max, `must be at most ${n(max)} characters`)
    .nullable()
    .transform((value) => (value ? value : null));

/** An optional Discord id (channel, role, member); empty becomes null. */
export const optionalId = () => z.union([Snowflake, z.literal(''), z.null()], { error: SNOWFLAKE_MESSAGE }).transform((value) => (value ? value : null));

/** The largest id of a row (the id columns are 32-bit integers). */
const MAX_ROW_ID = 2_147_483_647;

/**
 * A row's id in a path (/shop/12): a positive whole number written one way only. "+12", "012",
 * "12.0", "1.2e1", "0xc" and " 12" would name the same row; like the router's one spelling of each
 * path, they are refused.
 */
export const rowId = (message: string) =>
  z
    .string({ error: message })
    .regex(/^[1-9]\d{0,9}$/, message)
    .transform(Number)
    .pipe(z.number().max(MAX_ROW_ID, message));

/** ?page=&pageSize= of a paged list (pages from 1). */
export const pageQuery = (maxPageSize: number, defaultPageSize: number) =>
  z.object({
    page: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').default(1),
    pageSize: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, `must be between 1 and ${n(maxPageSize)}`)
      .max(maxPageSize, `must be between 1 and ${n(maxPageSize)}`)
      .default(defaultPageSize),
  });

/** How many dangerous roles one request may confirm. */
const MAX_CONFIRMED_ROLES = 25;

/**
 * Roles carrying staff permissions (Ban Members, Administrator...) that the person confirmed handing
 * out through the bot: a request without them is answered 409 `confirmation_required`, naming each
 * role and what it carries, and the dashboard sends it again with them once the person agrees.
 */
export const confirmRoleIds = () =>
  z
    .array(Snowflake, { error: 'must be a list of role ids' })
    .max(MAX_CONFIRMED_ROLES, `must hold at most ${MAX_CONFIRMED_ROLES} roles`)
    .optional()
    .transform((ids) => ids ?? []);
