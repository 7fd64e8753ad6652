import * as z from 'zod';
import { rowId } from '../../shared/fields';
import { requireSelfOr } from '../../core/access';
import { guildRoute, type RouteSpec } from '../../http/route';
import { Snowflake } from '../../shared/auth';
import { atLeast, SELF_ONLY } from '../../shared/access';
import {
  GiveCoinsInput,
  ShopItemInput,
  ShopItemPatch,
  TransactionQuery,
  type EconomyStats,
  type Inventory,
  type ShopItemView,
  type TransactionPage,
} from '../../shared/economy';
import { actorOf } from '../../core/actor';
import { inventoryOf, removeInventoryItem } from './member';
import {
  adminGiveCoins,
  createShopItem,
  deleteShopItem,
  economyCsv,
  economyStats,
  listShop,
  listTransactions,
  resetEconomy,
  transactionsCsv,
  updateShopItem,
} from './service';

const ItemParams = z.object({ itemId: rowId('must be a shop item id') });
const MemberParams = z.object({ userId: Snowflake });
const EntryParams = MemberParams.extend({ entryId: rowId('must be an inventory entry id') });

/** The economy's routes: stats, the shop, the ledger (and its CSV), Give Coins, Reset, Export, and inventories. */
export const economyRoutes: RouteSpec[] = [
  guildRoute({
    method: 'get',
    path: '/economy/stats',
    // economyStats() keeps it, for everyone.
    cache: false,
    example: {},
    handler: ({ guild, services }): Promise<EconomyStats> => economyStats(services, guild.id),
  }),
  guildRoute({
    method: 'get',
    path: '/shop',
    access: 'member',
    example: {},
    // Members see what is for sale; managers see every item.
    handler: ({ guild, access, services }): Promise<ShopItemView[]> => listShop(services, guild.id, { activeOnly: !atLeast(access.level, 'view') }),
  }),
  guildRoute({
    method: 'post',
    path: '/shop',
    body: ShopItemInput,
    example: { body: { name: 'Sticker', price: 25, type: 'cosmetic', description: 'A shiny sticker' } },
    handler: ({ body, guild, account, services }) => createShopItem(services, guild.id, body, { actorId: account.userId, confirmed: body.confirmRoleIds }),
  }),
  guildRoute({
    method: 'put',
    path: '/shop/:itemId',
    body: ShopItemInput,
    example: { body: { name: 'Sticker (gold)', price: 30, type: 'cosmetic' } },
    handler: ({ body, params, guild, account, services }) => {
      const { confirmRoleIds, baseVersion, serverId: _serverId, ...fields } = body;
      return updateShopItem(services, guild.id, ItemParams.parse(params).itemId, fields, {
        request: { actorId: account.userId, confirmed: confirmRoleIds },
        actor: actorOf(account),
        baseVersion,
      });
    },
  }),
  guildRoute({
    method: 'patch',
    path: '/shop/:itemId',
    body: ShopItemPatch,
    example: { body: { price: 35, baseVersion: 0 } },
    handler: ({ body, params, guild, account, services }) => {
      const { confirmRoleIds, baseVersion, ...fields } = body;
      return updateShopItem(services, guild.id, ItemParams.parse(params).itemId, fields, {
        request: { actorId: account.userId, confirmed: confirmRoleIds },
        actor: actorOf(account),
        baseVersion,
      });
    },
  }),
  guildRoute({
    method: 'delete',
    path: '/shop/:itemId',
    example: {},
    handler: async ({ params, guild, services }) => {
      await deleteShopItem(services, guild.id, ItemParams.parse(params).itemId);
    },
  }),
  guildRoute({
    method: 'get',
    path: '/transactions',
    query: TransactionQuery,
    cache: 'chat',
    example: { query: { limit: '10' } },
    handler: ({ query, guild, services }): Promise<TransactionPage> => listTransactions(services, guild.id, query),
  }),
  guildRoute({
    method: 'get',
    path: '/transactions/export',
    cache: false,
    query: TransactionQuery,
    example: {},
    handler: ({ query, guild, services, ctx }) => {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment('transactions.csv');
      ctx.body = transactionsCsv(services, guild.id, query);
    },
  }),
  guildRoute({
    method: 'get',
    path: '/economy/export',
    cache: false,
    example: {},
    handler: async ({ guild, services, ctx }) => {
      const stream = await economyCsv(services, guild.id);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment('economy-data.csv');
      ctx.body = stream;
    },
  }),
  guildRoute({
    method: 'post',
    path: '/economy/give',
    body: GiveCoinsInput,
    example: { body: { userId: ':userId', amount: 50 } },
    handler: ({ body, guild, account, services }) => adminGiveCoins(services, guild, body, actorOf(account)),
  }),
  guildRoute({
    method: 'post',
    path: '/economy/reset',
    example: {},
    handler: ({ guild, account, services }) => resetEconomy(services, guild, actorOf(account)),
  }),
  guildRoute({
    method: 'get',
    path: '/users/:userId/inventory',
    access: 'member',
    example: { params: { userId: ':self' } },
    handler: ({ params, guild, access, services }): Promise<Inventory> => {
      const { userId } = MemberParams.parse(params);
      requireSelfOr(access, userId, 'view', SELF_ONLY.inventory);
      return inventoryOf(services, guild.id, userId);
    },
  }),
  guildRoute({
    method: 'delete',
    path: '/users/:userId/inventory/:entryId',
    access: 'member',
    example: {
      params: { userId: ':self' },
    },
    handler: async ({ params, guild, access, account, services }) => {
      const { userId, entryId } = EntryParams.parse(params);
      requireSelfOr(access, userId, 'edit', SELF_ONLY.removeItems);
      await removeInventoryItem(services, guild.id, userId, entryId, { userId: account.userId, username: account.username });
    },
  }),
];
