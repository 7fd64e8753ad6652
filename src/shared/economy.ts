import * as z from 'zod';
import { Snowflake, SNOWFLAKE_MESSAGE } from './auth';
import { confirmRoleIds, flag, pageQuery, text, wholeNumber } from './fields';
import { baseVersion } from './versions';
import { labelFields } from './field-words';

/** The economy's settings (spec sections 2, 3 and 9). */
export const EconomySettingsSchema = z.object({
  economyEnabled: flag(),
  currencyName: text(32),
  /** Coins per message, on the XP cooldown. */
  baseReward: wholeNumber(0, 1_000_000),
  /** Coins for /daily once a day; 0 turns /daily off. */
  dailyReward: wholeNumber(0, 1_000_000),
});
export type EconomySettings = z.infer<typeof EconomySettingsSchema>;

/** Defaults of spec section 9 (the daily reward is off until an admin sets it). */
export const ECONOMY_DEFAULTS: EconomySettings = {
  economyEnabled: true,
  currencyName: 'coins',
  baseReward: 10,
  dailyReward: 0,
};

/** Shop item types (spec section 9). */
export const SHOP_ITEM_TYPES = ['role', 'cosmetic', 'badge', 'other'] as const;
export type ShopItemType = (typeof SHOP_ITEM_TYPES)[number];

/**
 * Kinds of ledger rows: coins earned (messages, voice, level bonus, daily), spent in the shop,
 * given between members, changed by an admin, zeroed by a reset, refunded; 'remove' records an
 * inventory item taken away (amount 0).
 */
export const TRANSACTION_TYPES = ['earn', 'purchase', 'give', 'admin', 'reset', 'refund', 'remove'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The most coins one balance can hold (a 32-bit column). */
export const MAX_BALANCE = 2_000_000_000;

/** Spec section 8's economy toasts, 5's give-coins message, and the empty states. */
export const ECONOMY_MESSAGES = {
  created: 'Shop item created',
  updated: 'Shop item updated',
  deleted: 'Item deleted',
  createFailed: { title: 'Error', description: 'Failed to create shop item. Please try again.' },
  updateFailed: { title: 'Error', description: 'Failed to update shop item. Please try again.' },
  deleteFailed: { title: 'Error', description: 'Failed to delete shop item. Please try again.' },
  exported: { title: 'Data Exported', description: 'Economy data has been downloaded as CSV' },
  resetConfirm: 'Are you sure you want to reset the entire economy? This action cannot be undone.',
  invalidGive: { title: 'Invalid Input', description: 'Please enter a valid username and amount' },
  noItems: 'No shop items yet',
  noTransactions: 'No transactions yet',
  noInventory: 'No Items Yet',
} as const;

/** Why coins cannot go to someone: the same words on the dashboard's Give Coins and on /give. */
export const COIN_RECIPIENT_REFUSALS = {
  notMember: (name: string) => `${name} is not a member of this server.`,
  bot: 'Bots cannot hold coins.',
  self: 'You cannot give coins to yourself.',
} as const;

const optionalCount = (max: number) =>
  z
    .union([z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(max, `must be at most ${max}`), z.null()])
    .optional()
    .transform((value) => value ?? null);

/** A shop item's fields as the form edits them. */
const shopItemFields = {
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  description: z
    .string({ error: 'must be text' })
    .trim()
    .max(500, 'must be at most 500 characters')
    .nullish()
    .transform((value) => value || null),
  price: z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(MAX_BALANCE, `must be at most ${MAX_BALANCE}`),
  type: z.enum(SHOP_ITEM_TYPES, { error: `must be one of ${SHOP_ITEM_TYPES.join(', ')}` }),
  roleId: z
    .union([Snowflake, z.literal(''), z.null()], { error: SNOWFLAKE_MESSAGE })
    .optional()
    .transform((value) => value || null),
  icon: z
    .string({ error: 'must be text' })
    .trim()
    .max(200, 'must be at most 200 characters')
    .nullish()
    .transform((value) => value || null),
  /** How many can be sold; empty for unlimited. */
  stock: optionalCount(1_000_000),
  /** How many one member may own; empty for unlimited. */
  perMemberLimit: optionalCount(1000),
};
const forSale = z.boolean({ error: 'must be true or false' });

/** The shop item dialog's names of its fields, for the messages about them. */
export const SHOP_ITEM_LABELS = { name: 'Item name', roleId: 'Role ID', perMemberLimit: 'Limit per member', isActive: 'For sale' };

/** POST /shop and PUT /shop/:itemId (spec section 5: name, price and type required; a role item needs its role). */
export const ShopItemInput = labelFields(
  z
    .object({
      ...shopItemFields,
      isActive: forSale.default(true),
      /** Sent by the spec's form; the route's server is the one used. */
      serverId: z.string().optional(),
      confirmRoleIds: confirmRoleIds(),
      /** PUT: the version of the item the page loaded (a full save from an outdated page is refused where it would undo a change). */
      baseVersion: baseVersion(),
    })
    .strict()
    .refine((value) => value.type !== 'role' || Boolean(value.roleId), {
      path: ['roleId'],
      message: 'is required for a role item',
      // Checked even when other fields are wrong, so the form shows every problem at once.
      when: (payload) => (payload.value as { type?: unknown } | undefined)?.type === 'role',
    }),
  SHOP_ITEM_LABELS,
);
export type ShopItemInput = z.input<typeof ShopItemInput>;

/**
 * PATCH /shop/:itemId: only the fields the person changed, and the version of the item the page
 * loaded (what others changed meanwhile to other fields is kept; see src/shared/versions).
 */
export const ShopItemPatch = labelFields(
  z
    .object({ ...shopItemFields, isActive: forSale })
    .partial()
    .extend({ confirmRoleIds: confirmRoleIds(), baseVersion: baseVersion() })
    .strict(),
  SHOP_ITEM_LABELS,
);
export type ShopItemPatch = z.input<typeof ShopItemPatch>;

/** A shop item as listed. */
export const ShopItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  price: z.number().int(),
  type: z.enum(SHOP_ITEM_TYPES),
  roleId: z.string().nullable(),
  roleName: z.string().nullable(),
  icon: z.string().nullable(),
  isActive: z.boolean(),
  purchaseCount: z.number().int(),
  stock: z.number().int().nullable(),
  perMemberLimit: z.number().int().nullable(),
  createdAt: z.string(),
  /** Counts edits: sent back with the next save. */
  version: z.number().int(),
});
export type ShopItemView = z.infer<typeof ShopItemSchema>;

/** GET /economy/stats (spec section 3). */
export const EconomyStatsSchema = z.object({
  totalUsers: z.number().int(),
  totalCurrency: z.number().int(),
  totalShopItems: z.number().int(),
  /** Ledger rows of the last 24 hours. */
  dailyTransactions: z.number().int(),
  topEarner: z.object({ userId: z.string(), username: z.string(), balance: z.number().int() }).nullable(),
});
export type EconomyStats = z.infer<typeof EconomyStatsSchema>;

/** A ledger row as listed. */
export const TransactionSchema = z.object({
  id: z.number().int(),
  userId: z.string(),
  username: z.string().nullable(),
  type: z.enum(TRANSACTION_TYPES),
  amount: z.number().int(),
  itemName: z.string().nullable(),
  description: z.string().nullable(),
  actorId: z.string().nullable(),
  createdAt: z.string(),
});
export type TransactionView = z.infer<typeof TransactionSchema>;

const isoDate = z.iso.datetime({ offset: true, error: 'must be a date and time with its time zone' });

/** GET /transactions?limit=10 (spec section 7), or ?page=&pageSize= with filters by member, type and date. */
export const TransactionQuery = pageQuery(200, 10).extend({
  /** The spec's `limit`: the first page of that size. */
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 200')
    .max(200, 'must be between 1 and 200')
    .optional(),
  userId: Snowflake.optional(),
  type: z.enum(TRANSACTION_TYPES, { error: `must be one of ${TRANSACTION_TYPES.join(', ')}` }).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type TransactionFilter = z.infer<typeof TransactionQuery>;

export const TransactionPageSchema = z.object({
  entries: z.array(TransactionSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

/** POST /economy/give: Give Coins to User (a negative amount takes coins away, never below 0). */
export const GiveCoinsInput = z
  .object({
    userId: Snowflake,
    amount: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(-MAX_BALANCE, `must be between -${MAX_BALANCE} and ${MAX_BALANCE}`)
      .max(MAX_BALANCE, `must be between -${MAX_BALANCE} and ${MAX_BALANCE}`)
      .refine((value) => value !== 0, 'must not be 0'),
    reason: z
      .string({ error: 'must be text' })
      .trim()
      .max(200, 'must be at most 200 characters')
      .nullish()
      .transform((value) => value || null),
  })
  .strict();
export type GiveCoinsInput = z.input<typeof GiveCoinsInput>;

/** A member's wallet after a change. */
export const WalletSchema = z.object({ userId: z.string(), balance: z.number().int(), totalEarned: z.number().int() });
export type Wallet = z.infer<typeof WalletSchema>;

/** One item a member owns. */
export const InventoryItemSchema = z.object({
  id: z.number().int(),
  itemId: z.number().int().nullable(),
  itemName: z.string(),
  itemType: z.enum(SHOP_ITEM_TYPES),
  description: z.string().nullable(),
  quantity: z.number().int(),
  acquiredAt: z.string(),
});
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

/** GET /users/:userId/inventory: the member and what they own. */
export const InventorySchema = z.object({
  userId: z.string(),
  username: z.string().nullable(),
  items: z.array(InventoryItemSchema),
});
export type Inventory = z.infer<typeof InventorySchema>;
