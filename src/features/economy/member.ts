// What members do with their coins, the same for a slash command, a text command and a route:
// buy from the shop (all or nothing, the role granted inside the same step), give coins to each
// other, claim the daily reward, and see or clear out their inventory.
import { Op } from 'sequelize';
import { Conflict, DiscordRefused, Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import { askDiscord } from '../../bot/discord-errors';
import type { ShopItem } from '../../db/models/economy';
import type { Inventory, ShopItemView, Wallet } from '../../shared/economy';

import { balanceOf, credit, debit, writeLedger, ensureWallet } from './ledger';
import { requireCoinRecipient } from './recipient';
import { viewShopItem } from './service';
import { memberName } from '../../core/names';

/** A member acting. */
export interface Member {
  userId: string;
  username: string;
}

const DAY_MS = 86_400_000;

/** Finds a shop item by id or by name (case-insensitive; a unique prefix will do). */
export async function findItem(services: Services, guildId: string, ref: string | number): Promise<ShopItem> {
  const items = services.store.guild(guildId).ShopItem;
  if (typeof ref === 'number' || /^\d+$/.test(ref)) {
    const byId = await items.findOne({ where: { id: Number(ref) } });
    if (byId) return byId;
  }
  const wanted = String(ref).trim().toLowerCase();
  // Every name starts with '': blank text would pick the shop's only item.
  if (!wanted) throw InvalidInput.field('item', 'is required: give the item’s name', 'Say which item: give its name or number.');
  const active = await items.findAll({ where: { isActive: true } });
  const exact = active.find((item) => item.name.toLowerCase() === wanted);
  if (exact) return exact;
  const partial = active.filter((item) => item.name.toLowerCase().startsWith(wanted));
  if (partial.length === 1 && partial[0]) return partial[0];
  if (partial.length > 1) {
    const names = partial.map((item) => item.name).join(', ');
    throw InvalidInput.field('item', `matches ${names}; say which`, `More than one item starts with "${String(ref).trim()}": ${names}. Say which one.`);
  }
  throw new NotFound(`The shop has no item called "${String(ref)}".`);
}

/**
 * Buys one of an item, all or nothing: the balance never goes below 0, the item's stock and the
 * member's limit hold, a role item's role is granted over Discord inside the same step (Discord
 * refusing charges nothing, and the member is told why), then the inventory, the item's purchase
 * count and a `purchase` ledger row of -price. Concurrent buys serialise on the database.
 */
export async function buyItem(services: Services, guildId: string, buyer: Member, ref: string | number): Promise<{ item: ShopItemView; balance: number }> {
  const found = await findItem(services, guildId, ref);
  const settings = await services.settings.get(guildId);
  if (found.type === 'role' && found.roleId) {
    const member = await services.gateway.member(guildId, buyer.userId);
    if (member.kind === 'member' && member.roleIds.includes(found.roleId))
      throw new Conflict(`You already have @${services.gateway.role(guildId, found.roleId)?.name ?? found.name}.`);
  }
  let granted: string | null = null;
  try {
    const result = await services.store.sequelize.transaction(async (transaction) => {
      const context = { store: services.store, transaction, now: services.clock.now() };
      const item = await services.store.guild(guildId).ShopItem.findOne({ where: { id: found.id }, transaction, lock: transaction.LOCK.UPDATE });
      if (!item || !item.isActive) throw new NotFound(`${found.name} is no longer for sale.`);
      const owned = await services.store.guild(guildId).UserInventory.findOne({
        where: { userId: buyer.userId, itemId: item.id },
        transaction,
        lock: transaction.LOCK.UPDATE,
      });
      const limit = item.type === 'role' ? 1 : item.perMemberLimit;
      if (limit !== null && (owned?.quantity ?? 0) >= limit) {
        throw new Conflict(item.type === 'role' ? `You already have ${item.name}.` : `You can own at most ${limit} × ${item.name}.`);
      }
      if (item.stock !== null) {
        const left = await services.store
          .guild(guildId)
          .ShopItem.update(
            { stock: services.store.sequelize.literal('"stock" - 1') as unknown as number },
            { where: { id: item.id, stock: { [Op.gt]: 0 } }, transaction },
          );
        if (left === 0) throw new Conflict(`${item.name} is sold out.`);
      }
      if (item.price > 0) {
        const paid = await debit(context, {
          guildId,
          userId: buyer.userId,
          type: 'purchase',
          amount: -item.price,
          itemId: item.id,
          itemName: item.name,
          description: `Bought ${item.name}`,
          actorId: buyer.userId,
        });
        if (!paid) {
          const balance = await balanceOf(context, guildId, buyer.userId);
          throw new Conflict(`${item.name} costs ${item.price.toLocaleString('en-US')} ${settings.currencyName}; you have ${balance.toLocaleString('en-US')}.`);
        }
      } else {
        await writeLedger(context, [
          {
            guildId,
            userId: buyer.userId,
            type: 'purchase',
            amount: 0,
            itemId: item.id,
            itemName: item.name,
            description: `Got ${item.name} (free)`,
            actorId: buyer.userId,
          },
        ]);
      }
      if (owned) await owned.update({ quantity: owned.quantity + 1 }, { transaction });
      else
        await services.store
          .guild(guildId)
          .UserInventory.create(
            { userId: buyer.userId, itemId: item.id, itemName: item.name, itemType: item.type, quantity: 1, acquiredAt: context.now },
            { transaction },
          );
      await item.increment('purchaseCount', { transaction });
      if (item.type === 'role' && item.roleId) {
        // Inside the step: if Discord refuses, the transaction rolls back and nothing is charged.
        const guild = services.gateway.client?.guilds.cache.get(guildId);
        const member = await guild?.members.fetch(buyer.userId).catch(() => null);
        if (!guild || !member) throw new DiscordRefused(10007, 'You are no longer a member of this server.');
        const roleName = guild.roles.cache.get(item.roleId)?.name ?? item.name;
        const botName = guild.members.me?.displayName ?? 'The bot';
        try {
          await askDiscord(
            () => member.roles.add(item.roleId ?? '', `Bought in the shop: ${item.name}`),
            botName,
            (code) =>
              code === 50013
                ? `${botName} cannot give @${roleName}: it needs Manage Roles and a role above it. Nothing was charged; tell a moderator.`
                : undefined,
          );
        } catch (error) {
          // Whatever Discord said (a refusal, or no answer after discord.js's retries), the member
          // must know their coins are safe.
          if (error instanceof DiscordRefused && !error.message.includes('Nothing was charged'))
            throw new DiscordRefused(error.code, `${error.message} Nothing was charged.`);
          throw error;
        }
        granted = item.roleId;
      }
      return { item: viewShopItem(services, await item.reload({ transaction })), balance: await balanceOf(context, guildId, buyer.userId) };
    });
    services.readCache.invalidate(`${guildId}:`);
    return result;
  } catch (error) {
    // The role was given but the purchase did not commit: take it back, so nothing is free.
    const roleId: string | null = granted;
    if (roleId) {
      const member = await services.gateway.client?.guilds.cache
        .get(guildId)
        ?.members.fetch(buyer.userId)
        .catch(() => null);
      await member?.roles.remove(roleId, 'The purchase did not go through').catch(() => undefined);
    }
    throw error;
  }
}

/** Member to member: never below 0, only to a member the rule allows (requireCoinRecipient); two `give` rows, one transaction. */
export async function giveCoins(services: Services, guildId: string, from: Member, to: Member, amount: number): Promise<{ from: Wallet; to: Wallet }> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw InvalidInput.field('amount', 'must be a whole number of at least 1');
  await requireCoinRecipient(services, { guildId, recipientId: to.userId, recipientName: to.username, giverId: from.userId, field: 'member' });
  const settings = await services.settings.get(guildId);
  const balances = await services.store.sequelize.transaction(async (transaction) => {
    const context = { store: services.store, transaction, now: services.clock.now() };
    const sent = await debit(context, {
      guildId,
      userId: from.userId,
      type: 'give',
      amount: -amount,
      description: `Gave to ${to.username}`,
      actorId: from.userId,
      counterpartyId: to.userId,
    });
    if (!sent) {
      const balance = await balanceOf(context, guildId, from.userId);
      throw new Conflict(`You have ${balance.toLocaleString('en-US')} ${settings.currencyName}; you cannot give ${amount.toLocaleString('en-US')}.`);
    }
    const received = await credit(
      context,
      { guildId, userId: to.userId, type: 'give', amount, description: `From ${from.username}`, actorId: from.userId, counterpartyId: from.userId },
      to.username,
    );
    if (!received) throw new Conflict(`${to.username}'s wallet cannot hold that much.`);
    return { from: await balanceOf(context, guildId, from.userId), to: await balanceOf(context, guildId, to.userId) };
  });
  services.readCache.invalidate(`${guildId}:`);
  return { from: { userId: from.userId, balance: balances.from, totalEarned: 0 }, to: { userId: to.userId, balance: balances.to, totalEarned: 0 } };
}

/** /daily: the daily reward (Economy Settings; 0 is off) once per 24 hours. */
export async function claimDaily(services: Services, guildId: string, member: Member): Promise<{ amount: number; balance: number }> {
  const settings = await services.settings.get(guildId);
  if (settings.dailyReward <= 0) throw new Conflict('The daily reward is off in this server.');
  const now = services.clock.now();
  const result = await services.store.sequelize.transaction(async (transaction) => {
    const context = { store: services.store, transaction, now };
    await ensureWallet(context, guildId, member.userId, member.username);
    const claimed = await services.store.guild(guildId).UserCurrency.update(
      { lastDailyAt: now },
      {
        where: { userId: member.userId, [Op.or]: [{ lastDailyAt: null }, { lastDailyAt: { [Op.lte]: new Date(now.getTime() - DAY_MS) } }] },
        transaction,
      },
    );
    if (claimed === 0) {
      const wallet = await services.store.guild(guildId).UserCurrency.findOne({ where: { userId: member.userId }, transaction });
      const next = (wallet?.lastDailyAt?.getTime() ?? now.getTime()) + DAY_MS;
      const hours = Math.ceil((next - now.getTime()) / 3_600_000);
      throw new Conflict(`You already claimed today's reward. Come back in ${hours} ${hours === 1 ? 'hour' : 'hours'}.`);
    }
    await credit(context, { guildId, userId: member.userId, type: 'earn', amount: settings.dailyReward, description: 'Daily reward' }, member.username);
    return { amount: settings.dailyReward, balance: await balanceOf(context, guildId, member.userId) };
  });
  services.readCache.invalidate(`${guildId}:`);
  return result;
}

/** A member's inventory, with each item's description from the shop (when it still exists). */
export async function inventoryOf(services: Services, guildId: string, userId: string): Promise<Inventory> {
  const rows = await services.store.guild(guildId).UserInventory.findAll({
    where: { userId },
    order: [
      ['acquiredAt', 'DESC'],
      ['id', 'DESC'],
    ],
  });
  const itemIds = rows.map((row) => row.itemId).filter((id): id is number => id !== null);
  const items = itemIds.length
    ? await services.store.guild(guildId).ShopItem.findAll({ where: { id: { [Op.in]: itemIds } }, attributes: ['id', 'description'] })
    : [];
  const descriptions = new Map(items.map((item) => [item.id, item.description]));
  const wallet = await services.store.guild(guildId).UserCurrency.findOne({ where: { userId }, attributes: ['username'] });
  return {
    userId,
    username: memberName(services, guildId, userId, wallet?.username ?? null),
    items: rows.map((row) => ({
      id: row.id,
      itemId: row.itemId,
      itemName: row.itemName,
      itemType: (['role', 'cosmetic', 'badge', 'other'].includes(row.itemType) ? row.itemType : 'other') as Inventory['items'][number]['itemType'],
      description: row.itemId ? (descriptions.get(row.itemId) ?? null) : null,
      quantity: row.quantity,
      acquiredAt: row.acquiredAt.toISOString(),
    })),
  };
}

/** Removes an item from a member's inventory (never a role item), recorded as a 0-coin `remove` ledger row. */
export async function removeInventoryItem(services: Services, guildId: string, userId: string, entryId: number, actor: Member): Promise<void> {
  await services.store.sequelize.transaction(async (transaction) => {
    const row = await services.store.guild(guildId).UserInventory.findOne({ where: { userId, id: entryId }, transaction });
    if (!row) throw new NotFound('That item is not in the inventory.');
    if (row.itemType === 'role') throw new Forbidden('Role items cannot be removed: the role is managed in Discord.');
    await row.destroy({ transaction });
    const by = actor.userId === userId ? 'by its owner' : `by ${actor.username}`;
    await writeLedger({ store: services.store, transaction, now: services.clock.now() }, [
      {
        guildId,
        userId,
        type: 'remove',
        amount: 0,
        itemId: row.itemId,
        itemName: row.itemName,
        description: `Removed ${row.quantity} × ${row.itemName} ${by}`,
        actorId: actor.userId,
      },
    ]);
  });
}
