import { Readable } from 'node:stream';
import { Op, fn, col, type WhereOptions } from 'sequelize';
import { InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import type { ShopItem, Transaction } from '../../db/models/economy';
import type { EconomyStats, ShopItemType, ShopItemView, TransactionFilter, TransactionPage, Wallet } from '../../shared/economy';
import { checkRoleHandouts, problemText, roleProblem, type RoleRequest } from '../../core/checks';
import type { Actor } from '../../core/actor';
import { guildValueWords } from '../../core/value-words';
import { saveVersioned } from '../../db/versioned';

import { readCacheKey } from '../../core/read-cache';
import { credit, debit } from './ledger';
import { requireCoinRecipient } from './recipient';
import { memberName } from '../../core/names';

const DAY_MS = 86_400_000;

/** The parsed body of POST /shop and PUT /shop/:itemId. */
export interface ShopItemFields {
  name: string;
  description: string | null;
  price: number;
  type: ShopItemType;
  roleId: string | null;
  icon: string | null;
  isActive: boolean;
  stock: number | null;
  perMemberLimit: number | null;
}

const shop = (services: Services, guildId: string) => services.store.guild(guildId).ShopItem;

/** A shop item as listed, with its role's current name. */
export function viewShopItem(services: Services, item: ShopItem): ShopItemView {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    price: item.price,
    type: item.type,
    roleId: item.roleId,
    roleName: item.roleId ? (services.gateway.role(item.guildId, item.roleId)?.name ?? null) : null,
    icon: item.icon,
    isActive: item.isActive,
    purchaseCount: item.purchaseCount,
    stock: item.stock,
    perMemberLimit: item.perMemberLimit,
    createdAt: (item.createdAt ?? new Date(0)).toISOString(),
    version: item.version,
  };
}

/** Economy stats (spec section 3), cached between writes. */
export function economyStats(services: Services, guildId: string): Promise<EconomyStats> {
  return services.readCache.get(`${readCacheKey(guildId, 'chat')}economy-stats`, async () => {
    const wallets = services.store.guild(guildId).UserCurrency;
    const [totalUsers, sum, totalShopItems, dailyTransactions, top] = await Promise.all([
      wallets.count(),
      wallets.findAll({ attributes: [[fn('SUM', col('balance')), 'total']], raw: true }),
      shop(services, guildId).count(),
      services.store.guild(guildId).Transaction.count({ where: { createdAt: { [Op.gte]: new Date(services.clock.ms() - DAY_MS) } } }),
      wallets.findOne({
        where: { balance: { [Op.gt]: 0 } },
        order: [
          ['balance', 'DESC'],
          ['userId', 'ASC'],
        ],
        attributes: ['userId', 'username', 'balance'],
      }),
    ]);
    return {
      totalUsers,
      totalCurrency: Number((sum[0] as unknown as { total: number | string | null } | undefined)?.total ?? 0),
      totalShopItems,
      dailyTransactions,
      topEarner: top ? { userId: top.userId, username: memberName(services, guildId, top.userId, top.username), balance: top.balance } : null,
    };
  });
}

/** The shop, cheapest first. */
export async function listShop(services: Services, guildId: string, { activeOnly = false } = {}): Promise<ShopItemView[]> {
  const rows = await shop(services, guildId).findAll({
    ...(activeOnly ? { where: { isActive: true } } : {}),
    order: [
      ['price', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  return rows.map((row) => viewShopItem(services, row));
}

/**
 * A role item's role must be one the bot can give; when the item starts selling a role (created,
 * its role changed, or put back on sale), the person asking must also be able to give that role
 * in Discord themselves, and confirm a role with staff permissions (checkRoleHandouts).
 */
async function checkItem(services: Services, guildId: string, fields: ShopItemFields, request: RoleRequest, before: ShopItem | null): Promise<void> {
  if (fields.type !== 'role' || !fields.roleId) return;
  const sells = fields.isActive && (!before || !before.isActive || before.type !== 'role' || before.roleId !== fields.roleId);
  if (sells) return checkRoleHandouts(services, guildId, request, [{ field: 'roleId', roleId: fields.roleId, what: `The shop item ${fields.name}` }]);
  const problem = roleProblem(services, guildId, fields.roleId);
  if (problem) throw InvalidInput.field('roleId', problemText(problem));
}

/** The columns of an item from its fields. */
function itemColumns(fields: ShopItemFields) {
  const { name, description, price, type, roleId, icon, isActive, stock, perMemberLimit } = fields;
  return { name, description, price, type, roleId: type === 'role' ? roleId : null, icon, isActive, stock, perMemberLimit };
}

/** Adds an item to the shop. */
export async function createShopItem(services: Services, guildId: string, fields: ShopItemFields, request: RoleRequest): Promise<ShopItemView> {
  await checkItem(services, guildId, fields, request, null);
  const row = await shop(services, guildId).create({ ...itemColumns(fields), purchaseCount: 0 });
  services.readCache.invalidate(`${guildId}:`);
  return viewShopItem(services, row);
}

/** An item's editable fields as stored. */
function fieldsOf(row: ShopItem): ShopItemFields {
  const { name, description, price, type, roleId, icon, isActive, stock, perMemberLimit } = row;
  return { name, description, price, type, roleId, icon, isActive, stock, perMemberLimit };
}

/** Who changes an item, and the version of it their page loaded. */
export interface ShopItemEdit {
  request: RoleRequest;
  actor: Actor;
  baseVersion?: number | undefined;
}

/**
 * Changes an item: `patch` holds the fields to change (every field for PUT, only the person's
 * changes for PATCH). Saved over the version the page loaded (db/versioned): changes made
 * meanwhile to other fields are kept, a change meanwhile to one of these refuses the save.
 */
export async function updateShopItem(
  services: Services,
  guildId: string,
  id: number,
  patch: Partial<ShopItemFields>,
  edit: ShopItemEdit,
): Promise<ShopItemView> {
  const row = await shop(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound('That shop item does not exist in this server.');
  const given = Object.fromEntries(Object.entries(patch).filter(([field, value]) => value !== undefined && field in fieldsOf(row))) as Partial<ShopItemFields>;
  const merged: ShopItemFields = { ...fieldsOf(row), ...given };
  if (merged.type === 'role' && !merged.roleId) throw InvalidInput.field('roleId', 'is required for a role item');
  await checkItem(services, guildId, merged, edit.request, row);
  const columns = itemColumns(merged);
  const saving = new Set([...Object.keys(given), ...('type' in given ? ['roleId'] : [])]);
  const values = Object.fromEntries(Object.entries(columns).filter(([field]) => saving.has(field)));
  const saved = await saveVersioned(services.store, {
    entity: 'shopItem',
    row,
    values,
    baseVersion: edit.baseVersion,
    actor: edit.actor,
    now: () => services.clock.now(),
    describe: guildValueWords(services, guildId),
  });
  services.readCache.invalidate(`${guildId}:`);
  return viewShopItem(services, saved);
}

/** Deletes an item (inventories and the ledger keep its name). */
export async function deleteShopItem(services: Services, guildId: string, id: number): Promise<void> {
  if ((await shop(services, guildId).destroy({ where: { id } })) === 0) throw new NotFound('That shop item does not exist in this server.');
  services.readCache.invalidate(`${guildId}:`);
}

/** The ledger filter as a where clause. */
function ledgerWhere(filter: Pick<TransactionFilter, 'userId' | 'type' | 'from' | 'to'>): WhereOptions<Transaction> {
  return {
    ...(filter.userId ? { userId: filter.userId } : {}),
    ...(filter.type ? { type: filter.type } : {}),
    ...(filter.from || filter.to
      ? { createdAt: { ...(filter.from ? { [Op.gte]: new Date(filter.from) } : {}), ...(filter.to ? { [Op.lte]: new Date(filter.to) } : {}) } }
      : {}),
  } as WhereOptions<Transaction>;
}

/** Names of members for ledger rows, from their wallets. */
async function walletNames(services: Services, guildId: string, userIds: string[]): Promise<Map<string, string | null>> {
  if (userIds.length === 0) return new Map();
  const wallets = await services.store.guild(guildId).UserCurrency.findAll({
    where: { userId: { [Op.in]: [...new Set(userIds)] } },
    attributes: ['userId', 'username'],
  });
  return new Map(wallets.map((wallet) => [wallet.userId, wallet.username]));
}

/** The ledger, newest first, filtered and paged (`limit` is the spec's first page of that size). */
export async function listTransactions(services: Services, guildId: string, filter: TransactionFilter): Promise<TransactionPage> {
  const pageSize = filter.limit ?? filter.pageSize;
  const page = filter.limit ? 1 : filter.page;
  const ledger = services.store.guild(guildId).Transaction;
  const where = ledgerWhere(filter);
  const [rows, total] = await Promise.all([
    ledger.findAll({ where, order: [['id', 'DESC']], limit: pageSize, offset: (page - 1) * pageSize }),
    ledger.count({ where }),
  ]);
  const names = await walletNames(
    services,
    guildId,
    rows.map((row) => row.userId),
  );
  return {
    entries: rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      username: memberName(services, guildId, row.userId, names.get(row.userId) ?? null),
      type: row.type,
      amount: row.amount,
      itemName: row.itemName,
      description: row.description,
      actorId: row.actorId,
      createdAt: row.createdAt.toISOString(),
    })),
    page,
    pageSize,
    total,
  };
}

/** One CSV cell: quoted when needed; a leading = + - @ is defused so a spreadsheet does not run it. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\n`;

/** Streams rows of a model in pages (large guilds: never all in memory). */
async function* pages<T>(fetch: (offset: number) => Promise<T[]>, size = 1000): AsyncGenerator<T> {
  for (let offset = 0; ; offset += size) {
    const rows = await fetch(offset);
    yield* rows;
    if (rows.length < size) return;
  }
}

/** The ledger (filtered) as CSV, streamed. */
export function transactionsCsv(services: Services, guildId: string, filter: Pick<TransactionFilter, 'userId' | 'type' | 'from' | 'to'>): Readable {
  const ledger = services.store.guild(guildId).Transaction;
  const where = ledgerWhere(filter);
  return Readable.from(
    (async function* lines() {
      yield csvLine(['Time', 'Member ID', 'Type', 'Amount', 'Item', 'Description', 'By']);
      for await (const row of pages((offset) => ledger.findAll({ where, order: [['id', 'DESC']], limit: 1000, offset }))) {
        yield csvLine([row.createdAt.toISOString(), row.userId, row.type, row.amount, row.itemName, row.description, row.actorId]);
      }
    })(),
  );
}

/**
 * Export Economy Data (spec section 7's rows, and every member's balance and total earned),
 * streamed: total users, total currency, the shop item count, each item, then each member.
 */
export async function economyCsv(services: Services, guildId: string): Promise<Readable> {
  const stats = await economyStats(services, guildId);
  const items = await listShop(services, guildId);
  const wallets = services.store.guild(guildId).UserCurrency;
  return Readable.from(
    (async function* lines() {
      yield csvLine(['Type', 'Name', 'Description', 'Price / Balance', 'Total Earned']);
      yield csvLine(['Total Users', '', '', stats.totalUsers, '']);
      yield csvLine(['Total Currency', '', '', stats.totalCurrency, '']);
      yield csvLine(['Shop Items', '', '', items.length, '']);
      for (const item of items) yield csvLine(['Shop Item', item.name, item.description, item.price, '']);
      for await (const wallet of pages((offset) =>
        wallets.findAll({
          order: [
            ['balance', 'DESC'],
            ['userId', 'ASC'],
          ],
          limit: 1000,
          offset,
        }),
      )) {
        yield csvLine(['Member', memberName(services, guildId, wallet.userId, wallet.username), wallet.userId, wallet.balance, wallet.totalEarned]);
      }
    })(),
  );
}

/** The wallet after a change. */
async function walletOf(services: Services, guildId: string, userId: string): Promise<Wallet> {
  const wallet = await services.store.guild(guildId).UserCurrency.findOne({ where: { userId } });
  return { userId, balance: wallet?.balance ?? 0, totalEarned: wallet?.totalEarned ?? 0 };
}

/**
 * Give Coins to User: an admin adds (or, with a negative amount, takes: never below 0) coins, as
 * an `admin` ledger row and an entry in the settings history, both in one transaction. Who may
 * receive them is /give's rule too (requireCoinRecipient).
 */
export async function adminGiveCoins(
  services: Services,
  guild: GuildSummary,
  input: { userId: string; amount: number; reason: string | null },
  actor: Actor,
): Promise<Wallet> {
  // Taking coins back from oneself is not giving: the self rule is for credits.
  await requireCoinRecipient(services, { guildId: guild.id, recipientId: input.userId, giverId: input.amount > 0 ? actor.userId : null, field: 'userId' });
  const settings = await services.settings.get(guild.id);
  const username = memberName(services, guild.id, input.userId, null);
  const description = input.reason ?? (input.amount > 0 ? `Given by ${actor.name}` : `Taken by ${actor.name}`);
  await services.store.sequelize.transaction(async (transaction) => {
    const context = { store: services.store, transaction, now: services.clock.now() };
    const entry = { guildId: guild.id, userId: input.userId, type: 'admin' as const, amount: input.amount, description, actorId: actor.userId };
    const done = input.amount > 0 ? await credit(context, entry, username) : await debit(context, entry);
    if (!done) {
      throw InvalidInput.field(
        'amount',
        input.amount > 0
          ? 'would take the balance past the most a wallet holds'
          : `would take the balance below 0 (${username} has less than ${-input.amount} ${settings.currencyName})`,
      );
    }
    const verb = input.amount > 0 ? `Gave ${input.amount} ${settings.currencyName} to` : `Took ${-input.amount} ${settings.currencyName} from`;
    await services.settings.record(
      guild.id,
      { actor, kind: 'economy', summary: `${verb} ${username}`, changes: [{ field: 'balance', from: null, to: input.amount }] },
      transaction,
    );
  });
  services.readCache.invalidate(`${guild.id}:`);
  return walletOf(services, guild.id, input.userId);
}

/**
 * Reset Economy: every balance to 0 through `reset` ledger rows (so the ledger stays whole), and an
 * entry in the settings history, in one transaction. Returns how many balances changed.
 */
export async function resetEconomy(services: Services, guild: GuildSummary, actor: Actor): Promise<{ reset: number }> {
  const settings = await services.settings.get(guild.id);
  let reset = 0;
  await services.store.sequelize.transaction(async (transaction) => {
    const now = services.clock.now();
    const wallets = await services.store.guild(guild.id).UserCurrency.findAll({
      where: { balance: { [Op.ne]: 0 } },
      attributes: ['userId', 'balance'],
      transaction,
    });
    reset = wallets.length;
    for (let i = 0; i < wallets.length; i += 500) {
      await services.store.guild(guild.id).Transaction.bulkCreate(
        wallets.slice(i, i + 500).map((wallet) => ({
          userId: wallet.userId,
          type: 'reset' as const,
          amount: -wallet.balance,
          itemId: null,
          itemName: null,
          description: 'Economy reset',
          actorId: actor.userId,
          counterpartyId: null,
          createdAt: now,
        })),
        { transaction },
      );
    }
    await services.store.guild(guild.id).UserCurrency.update({ balance: 0, updatedAt: now }, { where: { balance: { [Op.ne]: 0 } }, transaction });
    await services.settings.record(
      guild.id,
      { actor, kind: 'economy', summary: `Reset the economy: ${reset} ${reset === 1 ? 'balance' : 'balances'} of ${settings.currencyName} to 0`, changes: [] },
      transaction,
    );
  });
  services.readCache.invalidate(`${guild.id}:`);
  return { reset };
}
