// The economy's reads and writes, shared by the Economy & Shop, Transactions and Inventory pages.
import { queryOptions } from '@tanstack/react-query';
import {
  EconomyStatsSchema,
  InventorySchema,
  ShopItemSchema,
  TransactionPageSchema,
  type GiveCoinsInput,
  type ShopItemInput,
  type ShopItemPatch,
  type TransactionFilter,
} from '../../../src/shared/economy';
import { apiRequest } from '../../api/client';
import { guildApi, guildKeys, readGuild } from '../../api/guild';

/** Query keys under the guild, so a guild-wide refresh reaches them too. */
export const economyKeys = {
  all: (guildId: string) => [...guildKeys.all(guildId), 'economy'] as const,
  stats: (guildId: string) => [...guildKeys.all(guildId), 'economy', 'stats'] as const,
  shop: (guildId: string) => [...guildKeys.all(guildId), 'economy', 'shop'] as const,
  transactions: (guildId: string, filter: Partial<TransactionFilter>) => [...guildKeys.all(guildId), 'economy', 'transactions', filter] as const,
  inventory: (guildId: string, userId: string) => [...guildKeys.all(guildId), 'economy', 'inventory', userId] as const,
};

/** The query string of a ledger filter (empty values left out). */
export function transactionSearch(filter: Partial<TransactionFilter>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const economyStatsQuery = (guildId: string) =>
  queryOptions({ queryKey: economyKeys.stats(guildId), queryFn: readGuild(guildId, '/economy/stats', EconomyStatsSchema) });
export const shopQuery = (guildId: string) =>
  queryOptions({ queryKey: economyKeys.shop(guildId), queryFn: readGuild(guildId, '/shop', ShopItemSchema.array()) });
export const transactionsQuery = (guildId: string, filter: Partial<TransactionFilter>) =>
  queryOptions({
    queryKey: economyKeys.transactions(guildId, filter),
    queryFn: readGuild(guildId, `/transactions${transactionSearch(filter)}`, TransactionPageSchema),
  });
export const inventoryQuery = (guildId: string, userId: string) =>
  queryOptions({
    queryKey: economyKeys.inventory(guildId, userId),
    queryFn: readGuild(guildId, `/users/${encodeURIComponent(userId)}/inventory`, InventorySchema),
  });

/** Adds a shop item. */
export async function createShopItem(guildId: string, input: ShopItemInput) {
  return ShopItemSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/shop`, input));
}

/** Changes an item: only the fields the person changed, over the version their page loaded. */
export async function patchShopItem(guildId: string, itemId: number, patch: ShopItemPatch) {
  return ShopItemSchema.parse(await apiRequest('PATCH', `${guildApi(guildId)}/shop/${itemId}`, patch));
}

export const deleteShopItem = (guildId: string, itemId: number) => apiRequest('DELETE', `${guildApi(guildId)}/shop/${itemId}`);
export const giveCoins = (guildId: string, input: GiveCoinsInput) => apiRequest('POST', `${guildApi(guildId)}/economy/give`, input);
export const resetEconomy = (guildId: string) => apiRequest('POST', `${guildApi(guildId)}/economy/reset`);
export const removeInventoryEntry = (guildId: string, userId: string, entryId: number) =>
  apiRequest('DELETE', `${guildApi(guildId)}/users/${encodeURIComponent(userId)}/inventory/${entryId}`);
