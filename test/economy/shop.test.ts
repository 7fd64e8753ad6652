// The shop and the economy's admin side through HTTP and the sandbox: the item form's rules, /buy
// (not enough coins, a role item granted inside the purchase, Discord refusing charges nothing,
// stock and per-member limits), /give and /daily, inventories (own or as an admin; role items stay),
// Give Coins and Reset recorded in the settings history, the ledger with filters, and the CSVs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { EconomyStatsSchema, InventorySchema, ShopItemSchema, TransactionPageSchema } from '../../src/shared/economy';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { MemberSummarySchema } from '../../src/shared/servers';
import { HistoryPageSchema } from '../../src/shared/settings';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember } from '../factories';
import { assertLedgerWhole } from './ledger';

const clock = new ManualClock(Date.UTC(2026, 10, 5, 9));
const h = useHarness({}, { clock });
const base = () => `/api/servers/${h().guildId}`;
const admin = () => h().signIn(h().demo.adminUserId);

/** Credits a member through the admin route (a ledger row like any other). */
async function fund(userId: string, amount: number) {
  await (await admin()).post(`${base()}/economy/give`, { userId, amount }).expect(200);
}

describe('the shop', () => {
  test('the item form: name, price and type are required, a role item needs an assignable role; CRUD with cache-fresh stats', async () => {
    const session = await admin();
    const empty = await session.post(`${base()}/shop`, { name: '', type: 'role' });
    assert.equal(empty.status, 400);
    assert.deepEqual(Object.keys(empty.body.fields).sort(), ['name', 'price', 'roleId']);
    const high = await session.post(`${base()}/shop`, { name: 'Senior', price: 10, type: 'role', roleId: h().demo.roles.aboveBot });
    assert.equal(high.status, 400);
    assert.match(high.body.fields.roleId, /above AwesomeBot's highest role/);

    const before = EconomyStatsSchema.parse((await session.get(`${base()}/economy/stats`).expect(200)).body);
    const created = ShopItemSchema.parse(
      (await session.post(`${base()}/shop`, { name: 'Hat', price: 50, type: 'cosmetic', description: 'A fine hat', serverId: 'ignored' }).expect(200)).body,
    );
    const after = EconomyStatsSchema.parse((await session.get(`${base()}/economy/stats`).expect(200)).body);
    assert.equal(after.totalShopItems, before.totalShopItems + 1);
    const updated = ShopItemSchema.parse(
      (await session.put(`${base()}/shop/${created.id}`, { name: 'Top hat', price: 60, type: 'cosmetic' }).expect(200)).body,
    );
    assert.equal(updated.name, 'Top hat');
    await session.delete(`${base()}/shop/${created.id}`).expect(204);
    assert.equal((await session.delete(`${base()}/shop/${created.id}`)).status, 404);
  });
});

describe('buying, giving, daily', () => {
  test('/buy: not enough coins is said; a role item grants the role inside the purchase; the ledger stays whole', async () => {
    const session = await admin();
    const vip = ShopItemSchema.parse(
      (await session.post(`${base()}/shop`, { name: 'VIP', price: 100, type: 'role', roleId: h().demo.roles.member }).expect(200)).body,
    );
    const { userId } = await buildMember(h());
    const poor = await h().slash(userId, 'buy', { item: String(vip.id) });
    assert.equal(poor.body.content, 'VIP costs 100 coins; you have 0.');
    assert.equal(poor.body.ephemeral, true);
    await fund(userId, 150);
    const bought = await h().slash(userId, 'buy', { item: 'vip' });
    assert.equal(bought.body.content, 'You bought **VIP** for 100 coins. You now have the @Member role. You have 50 coins left.');
    await waitFor(() => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds.includes(h().demo.roles.member), 5000, 'the role');
    const again = await h().slash(userId, 'buy', { item: 'VIP' });
    assert.equal(again.body.content, 'You already have @Member.');
    const inventory = InventorySchema.parse((await session.get(`${base()}/users/${userId}/inventory`).expect(200)).body);
    assert.deepEqual(
      inventory.items.map((item) => [item.itemName, item.itemType, item.quantity]),
      [['VIP', 'role', 1]],
    );
    await assertLedgerWhole(h().product.store, h().guildId);
  });

  test('Discord refusing the role charges nothing, and the member is told why', async () => {
    const session = await admin();
    const role = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name: 'Patron' });
    await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(role.body.id), 5000, 'the role to reach the bot');
    const item = ShopItemSchema.parse(
      (await session.post(`${base()}/shop`, { name: 'Patron', price: 40, type: 'role', roleId: role.body.id }).expect(200)).body,
    );
    const top = h().world.requireGuild(h().guildId).roles.size - 1;
    await h().control('PATCH', `/guilds/${h().guildId}/roles/${role.body.id}`, { position: top });
    await waitFor(
      () => (h().product.client.guilds.cache.get(h().guildId)?.roles.cache.get(role.body.id)?.position ?? 0) >= top,
      5000,
      'the move to reach the bot',
    );
    const { userId } = await buildMember(h());
    await fund(userId, 100);
    const refused = await h().slash(userId, 'buy', { item: String(item.id) });
    assert.match(refused.body.content, /AwesomeBot cannot give @Patron: it needs Manage Roles and a role above it\. Nothing was charged/);
    const wallet = await h().product.store.models.UserCurrency.findOne({ where: { guildId: h().guildId, userId } });
    assert.equal(wallet?.balance, 100, 'nothing charged');
    assert.equal(await h().product.store.models.UserInventory.count({ where: { guildId: h().guildId, userId } }), 0, 'nothing owned');
    const reread = ShopItemSchema.array()
      .parse((await session.get(`${base()}/shop`)).body)
      .find((row) => row.id === item.id);
    assert.equal(reread?.purchaseCount, 0);
    await assertLedgerWhole(h().product.store, h().guildId);
  });

  test('stock and the per-member limit hold', async () => {
    const session = await admin();
    const item = ShopItemSchema.parse(
      (await session.post(`${base()}/shop`, { name: 'Badge', price: 10, type: 'badge', stock: 2, perMemberLimit: 1 }).expect(200)).body,
    );
    const [a, b, c] = [await buildMember(h()), await buildMember(h()), await buildMember(h())];
    for (const member of [a, b, c]) await fund(member.userId, 50);
    assert.match((await h().slash(a.userId, 'buy', { item: 'Badge' })).body.content, /^You bought \*\*Badge\*\*/);
    assert.equal((await h().slash(a.userId, 'buy', { item: 'Badge' })).body.content, 'You can own at most 1 × Badge.');
    assert.match((await h().slash(b.userId, 'buy', { item: 'Badge' })).body.content, /^You bought/);
    assert.equal((await h().slash(c.userId, 'buy', { item: 'Badge' })).body.content, 'Badge is sold out.');
    await session.post(`${base()}/shop`, { name: 'Badger', price: 10, type: 'badge' }).expect(200);
    assert.equal((await h().slash(c.userId, 'buy', { item: 'badg' })).body.content, 'More than one item starts with "badg": Badge, Badger. Say which one.');
    const reread = ShopItemSchema.array()
      .parse((await session.get(`${base()}/shop`)).body)
      .find((row) => row.id === item.id);
    assert.deepEqual([reread?.stock, reread?.purchaseCount], [0, 2]);
    await assertLedgerWhole(h().product.store, h().guildId);
  });

  test('/give moves coins between members (never below 0, not to bots or oneself); /daily once a day', async () => {
    const [from, to] = [await buildMember(h(), { username: 'giver' }), await buildMember(h(), { username: 'taker' })];
    await fund(from.userId, 30);
    const gave = await h().slash(from.userId, 'give', { member: to.userId, amount: 20 });
    assert.match(gave.body.content, new RegExp(`gave 20 coins to <@${to.userId}>`));
    assert.equal((await h().slash(from.userId, 'give', { member: to.userId, amount: 20 })).body.content, 'You have 10 coins; you cannot give 20.');
    assert.equal((await h().slash(from.userId, 'give', { member: from.userId, amount: 1 })).body.content, 'You cannot give coins to yourself.');
    assert.equal((await h().slash(from.userId, 'give', { member: h().world.botUserId, amount: 1 })).body.content, 'Bots cannot hold coins.');

    assert.equal((await h().slash(to.userId, 'daily')).body.content, 'The daily reward is off in this server.');
    await (await admin()).put(`${base()}/settings`, { dailyReward: 25 }).expect(200);
    assert.equal((await h().slash(to.userId, 'daily')).body.content, 'You claimed 25 coins. You now have 45 coins.');
    assert.match((await h().slash(to.userId, 'daily')).body.content, /^You already claimed today's reward\. Come back in 24 hours\.$/);
    clock.advance(24 * 3_600_000);
    assert.equal((await h().slash(to.userId, 'daily')).body.content, 'You claimed 25 coins. You now have 70 coins.');
    await assertLedgerWhole(h().product.store, h().guildId);
  });
});

describe('inventories, admin actions, the ledger', () => {
  test("a member reads their own inventory only; an admin reads anyone's; role items cannot be removed, others can (recorded)", async () => {
    const member = await buildAccount(h());
    const other = await buildMember(h());
    const session = await admin();
    const sticker = ShopItemSchema.parse((await session.post(`${base()}/shop`, { name: 'Sticker', price: 5, type: 'cosmetic' }).expect(200)).body);
    await fund(member.userId, 20);
    await h().slash(member.userId, 'buy', { item: String(sticker.id) });
    const own = InventorySchema.parse((await member.session.get(`${base()}/users/${member.userId}/inventory`).expect(200)).body);
    assert.equal(own.items[0]?.itemName, 'Sticker');
    const others = await member.session.get(`${base()}/users/${other.userId}/inventory`);
    assert.equal(others.status, 403);
    assert.equal(others.body.message, 'You can only see your own inventory.');
    await session.get(`${base()}/users/${member.userId}/inventory`).expect(200);
    await member.session.delete(`${base()}/users/${member.userId}/inventory/${own.items[0]?.id}`).expect(204);
    const removed = await h().product.store.models.Transaction.findOne({ where: { guildId: h().guildId, userId: member.userId, type: 'remove' } });
    assert.match(removed?.description ?? '', /Removed 1 × Sticker by its owner/);
    const role = await h().product.store.models.UserInventory.create({
      guildId: h().guildId,
      userId: member.userId,
      itemId: null,
      itemName: 'Old VIP',
      itemType: 'role',
      quantity: 1,
      acquiredAt: new Date(),
    });
    assert.equal((await member.session.delete(`${base()}/users/${member.userId}/inventory/${role.id}`)).status, 403);
  });

  test(
    'Give Coins needs a member and an amount, cannot go below 0, and is in the settings history; Reset zeroes every balance through the ' + 'ledger',
    async () => {
      const session = await admin();
      const { userId } = await buildMember(h());
      const bad = await session.post(`${base()}/economy/give`, { userId: 'pat', amount: 'ten' });
      assert.equal(bad.status, 400);
      assert.deepEqual(Object.keys(bad.body.fields).sort(), ['amount', 'userId']);
      assert.equal((await session.post(`${base()}/economy/give`, { userId: '123456789012345678', amount: 5 })).status, 400);
      await session.post(`${base()}/economy/give`, { userId, amount: 40, reason: 'Event prize' }).expect(200);
      const over = await session.post(`${base()}/economy/give`, { userId, amount: -41 });
      assert.equal(over.status, 400);
      assert.match(over.body.fields.amount, /below 0/);
      const history = HistoryPageSchema.parse((await session.get(`${base()}/audit-log`)).body);
      assert.ok(history.entries.some((entry) => entry.kind === 'economy' && /^Gave 40 coins to /.test(entry.summary)));

      const reset = await session.post(`${base()}/economy/reset`).expect(200);
      assert.ok(reset.body.reset >= 1);
      const stats = EconomyStatsSchema.parse((await session.get(`${base()}/economy/stats`)).body);
      assert.equal(stats.totalCurrency, 0);
      assert.equal(stats.topEarner, null);
      const afterReset = HistoryPageSchema.parse((await session.get(`${base()}/audit-log`)).body);
      assert.match(afterReset.entries[0]?.summary ?? '', /^Reset the economy: \d+ balances? of coins to 0$/);
      await assertLedgerWhole(h().product.store, h().guildId);
    },
  );

  test('the ledger pages and filters by member, type and date; the CSVs stream the rows', async () => {
    const session = await admin();
    const { userId } = await buildMember(h(), { username: 'csv_member' });
    await fund(userId, 7);
    const recent = TransactionPageSchema.parse((await session.get(`${base()}/transactions?limit=10`).expect(200)).body);
    assert.equal(recent.pageSize, 10);
    assert.ok(recent.entries.length <= 10);
    const mine = TransactionPageSchema.parse((await session.get(`${base()}/transactions?userId=${userId}&type=admin`).expect(200)).body);
    assert.deepEqual(
      mine.entries.map((entry) => [entry.type, entry.amount]),
      [['admin', 7]],
    );
    const future = TransactionPageSchema.parse(
      (await session.get(`${base()}/transactions?from=${encodeURIComponent(new Date(clock.ms() + 86_400_000).toISOString())}`).expect(200)).body,
    );
    assert.equal(future.total, 0);
    assert.equal((await session.get(`${base()}/transactions?type=stolen`)).status, 400);

    const ledgerCsv = await session.get(`${base()}/transactions/export?userId=${userId}`).expect(200);
    assert.match(String(ledgerCsv.headers['content-type']), /text\/csv/);
    assert.match(ledgerCsv.text, new RegExp(`^Time,Member ID,Type,Amount,Item,Description,By\\n[^\\n]+,${userId},admin,7,`));
    const economy = await session.get(`${base()}/economy/export`).expect(200);
    assert.match(String(economy.headers['content-disposition']), /economy-data\.csv/);
    assert.match(economy.text, /^Type,Name,Description,Price \/ Balance,Total Earned\nTotal Users,,,\d+,\nTotal Currency,,,\d+,\nShop Items,,,\d+,\n/);
    assert.match(economy.text, new RegExp(`\\nMember,csv_member,${userId},7,0\\n`));
  });
});

describe('the member search behind the pickers', () => {
  test('GET /members: 401 signed out, 400 naming q, 403 for a plain member, 200 with members by name prefix or id', async () => {
    const request = (await import('supertest')).default;
    await request(h().product.url).get(`${base()}/members?q=a`).expect(401);
    const session = await admin();
    const missing = await session.get(`${base()}/members`).expect(400);
    assert.ok(missing.body.fields.q);
    const member = await h().signIn(h().demo.plainMemberId);
    await member.get(`${base()}/members?q=a`).expect(403);

    const someone = h().world.users.get(h().demo.plainMemberId);
    assert.ok(someone);
    const prefix = someone.username.slice(0, 3);
    const found = MemberSummarySchema.array().parse((await session.get(`${base()}/members?q=${encodeURIComponent(prefix)}`).expect(200)).body);
    assert.ok(found.length > 0 && found.length <= 25);
    assert.ok(
      found.every((entry) => entry.username.toLowerCase().startsWith(prefix.toLowerCase()) || entry.displayName.toLowerCase().startsWith(prefix.toLowerCase())),
    );
    const byId = MemberSummarySchema.array().parse((await session.get(`${base()}/members?q=${h().demo.plainMemberId}`).expect(200)).body);
    assert.deepEqual(
      byId.map((entry) => entry.id),
      [h().demo.plainMemberId],
    );
    assert.deepEqual((await session.get(`${base()}/members?q=999999999999999999`).expect(200)).body, []);
  });
});

describe('diagnostics of the economy and leveling', () => {
  test('a role item or a level reward whose role is above the bot is reported, with the fix', async () => {
    const { store } = h().product;
    const guildId = h().guildId;
    const item = await store.models.ShopItem.create({
      guildId,
      name: 'Senior badge',
      description: null,
      price: 5,
      type: 'role',
      roleId: h().demo.roles.aboveBot,
      icon: null,
      stock: null,
      perMemberLimit: null,
    });
    const reward = await store.models.LevelReward.create({ guildId, level: 9, roleId: h().demo.roles.aboveBot, createdAt: new Date() });
    try {
      const session = await admin();
      const economy = DiagnosticsSchema.parse((await session.get(`${base()}/diagnostics?feature=economy`).expect(200)).body);
      const shopProblem = economy.items.find((entry) => entry.subject === `shopItem:${item.id}`);
      assert.match(shopProblem?.problem ?? '', /Senior badge/);
      assert.ok(shopProblem?.fix);
      const leveling = DiagnosticsSchema.parse((await session.get(`${base()}/diagnostics?feature=leveling`).expect(200)).body);
      assert.match(leveling.items.find((entry) => entry.subject === `levelReward:${reward.id}`)?.problem ?? '', /^Level 9 reward/);
      assert.ok(leveling.counts.leveling >= 1 && economy.counts.economy >= 1);
    } finally {
      await item.destroy();
      await reward.destroy();
    }
  });
});
