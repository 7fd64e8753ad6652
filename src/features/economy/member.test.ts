// buyItem's rules against a real (in-memory SQLite) store with no bot: a purchase is all or
// nothing, the balance never goes below 0, stock and the member's limit hold, a free item is a
// 0-coin ledger row, an item is found by id, name or a unique prefix. The role items' Discord side
// runs through the sandbox in test/economy/shop.test.ts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../core/clock';
import { Conflict, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { Store } from '../../db/store';
import { createLogger } from '../../logger';
import { buildServices } from '../../main';
import { createTestStore } from '../../../test/helpers/store';
import { testConfig } from '../../../test/helpers/app';
import { credit } from './ledger';
import { buyItem } from './member';

const GUILD = '300000000000000001';
const buyer = { userId: '400000000000000001', username: 'shopper' };

describe('buyItem', () => {
  let store: Store;
  let services: Services;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 12));

  before(async () => {
    ({ store, dispose } = await createTestStore());
    services = buildServices({ config: testConfig(), store, client: null, logger: createLogger('silent'), clock });
  });
  after(() => dispose());
  beforeEach(async () => {
    const { ShopItem, UserCurrency, UserInventory, Transaction } = store.models;
    for (const model of [ShopItem, UserCurrency, UserInventory, Transaction]) await (model as typeof ShopItem).destroy({ where: {} });
  });

  /** Puts `amount` coins in the buyer's wallet. */
  const fund = (amount: number) =>
    store.sequelize.transaction((transaction) =>
      credit({ store, transaction, now: clock.now() }, { guildId: GUILD, userId: buyer.userId, type: 'admin', amount }, buyer.username),
    );
  const item = (values: { name: string; price: number; stock?: number | null; perMemberLimit?: number | null; isActive?: boolean }) =>
    store.models.ShopItem.create({ guildId: GUILD, type: 'cosmetic', description: null, roleId: null, ...values });
  const balance = async () => (await store.models.UserCurrency.findOne({ where: { guildId: GUILD, userId: buyer.userId } }))?.balance ?? 0;
  const owned = async (itemId: number) =>
    (await store.models.UserInventory.findOne({ where: { guildId: GUILD, userId: buyer.userId, itemId } }))?.quantity ?? 0;
  const purchases = () => store.models.Transaction.findAll({ where: { guildId: GUILD, userId: buyer.userId, type: 'purchase' } });

  test('a purchase takes the price, adds one to the inventory, counts the sale and writes a purchase row of -price', async () => {
    await fund(100);
    const hat = await item({ name: 'Golden Hat', price: 60 });
    const result = await buyItem(services, GUILD, buyer, 'Golden Hat');
    assert.equal(result.balance, 40);
    assert.equal(result.item.name, 'Golden Hat');
    assert.equal(await balance(), 40);
    assert.equal(await owned(hat.id), 1);
    assert.equal((await hat.reload()).purchaseCount, 1);
    const [row, ...more] = await purchases();
    assert.deepEqual([row?.amount, row?.itemId, row?.itemName, more.length], [-60, hat.id, 'Golden Hat', 0]);
  });

  test('too few coins: refused in words with the price and the balance, and nothing changes', async () => {
    await fund(59);
    const hat = await item({ name: 'Golden Hat', price: 60 });
    await assert.rejects(buyItem(services, GUILD, buyer, hat.id), (error: unknown) => {
      assert.ok(error instanceof Conflict);
      assert.match(error.message, /Golden Hat costs 60 .*; you have 59\./);
      return true;
    });
    assert.equal(await balance(), 59);
    assert.equal(await owned(hat.id), 0);
    assert.equal((await hat.reload()).purchaseCount, 0);
    assert.equal((await purchases()).length, 0);
  });

  test('the stock goes down with each sale and a sold-out item is refused without charging', async () => {
    await fund(100);
    const badge = await item({ name: 'Badge', price: 10, stock: 1 });
    await buyItem(services, GUILD, buyer, 'Badge');
    assert.equal((await badge.reload()).stock, 0);
    await assert.rejects(buyItem(services, GUILD, buyer, 'Badge'), (error: unknown) => error instanceof Conflict && /sold out/.test(error.message));
    assert.equal(await balance(), 90);
    assert.equal(await owned(badge.id), 1);
  });

  test("the member's limit holds: the second of a limit-1 item is refused", async () => {
    await fund(100);
    const pass = await item({ name: 'Season Pass', price: 5, perMemberLimit: 1 });
    await buyItem(services, GUILD, buyer, pass.id);
    await assert.rejects(
      buyItem(services, GUILD, buyer, pass.id),
      (error: unknown) => error instanceof Conflict && /at most 1 × Season Pass/.test(error.message),
    );
    assert.equal(await balance(), 95);
  });

  test('a free item needs no wallet and is recorded as a 0-coin purchase', async () => {
    const flyer = await item({ name: 'Flyer', price: 0 });
    const result = await buyItem(services, GUILD, buyer, 'flyer');
    assert.equal(result.balance, 0);
    assert.equal(await owned(flyer.id), 1);
    assert.deepEqual(
      (await purchases()).map((row) => row.amount),
      [0],
    );
  });

  test('found by a unique prefix; an ambiguous prefix, a blank name, an unknown or inactive item are refused', async () => {
    await fund(100);
    await item({ name: 'Red Cape', price: 1 });
    await item({ name: 'Red Hat', price: 1 });
    await item({ name: 'Blue Cape', price: 1 });
    const hidden = await item({ name: 'Retired Crown', price: 1, isActive: false });
    assert.equal((await buyItem(services, GUILD, buyer, 'blue')).item.name, 'Blue Cape');
    await assert.rejects(buyItem(services, GUILD, buyer, 'red'), (error: unknown) => error instanceof InvalidInput && /Red Cape, Red Hat/.test(error.message));
    await assert.rejects(buyItem(services, GUILD, buyer, '   '), InvalidInput);
    await assert.rejects(buyItem(services, GUILD, buyer, 'Dragon'), NotFound);
    await assert.rejects(buyItem(services, GUILD, buyer, 'Retired Crown'), NotFound);
    await assert.rejects(buyItem(services, GUILD, buyer, hidden.id), NotFound);
    assert.equal(await balance(), 99, 'only the one purchase was charged');
  });

  test("another guild's item is not for sale here", async () => {
    await fund(100);
    const elsewhere = await store.models.ShopItem.create({
      guildId: '300000000000000002',
      type: 'cosmetic',
      name: 'Foreign Hat',
      price: 1,
      description: null,
      roleId: null,
    });
    await assert.rejects(buyItem(services, GUILD, buyer, elsewhere.id), NotFound);
    assert.equal(await balance(), 100);
  });
});
