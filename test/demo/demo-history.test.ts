// The demo server's month of history (DEMO_HISTORY on, as `npm start` runs): written once on the
// first start through the features' own functions, deterministic, true to the product's rules
// (balances are their ledger, levels follow XP, stock follows purchases), not written twice by a
// restart, made anew by the sandbox's reset control, and every 30-day chart has something to draw.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import type { Product } from '../../src/main';
import { levelFromTotal } from '../../src/shared/level-curve';
import { signInAs, startTestProduct } from '../helpers/product';

const START = Date.UTC(2026, 10, 20, 15, 30);
const DEMO = { DEMO_HISTORY: 'on' };

/** The demo guild's rows of the history's tables, without autoincrement ids and the times Sequelize stamps itself (the shop's, updatedAt). */
async function dump(product: Product) {
  const data = product.store.guild(product.sandbox?.world.demo.guildId ?? '');
  const plain = async (rows: Promise<{ get(options: { plain: true }): object }[]>, drop: string[] = []) =>
    (await rows).map((row) => Object.fromEntries(Object.entries(row.get({ plain: true })).filter(([key]) => !['id', 'updatedAt', ...drop].includes(key))));
  return {
    levels: await plain(data.UserLevel.findAll({ order: [['userId', 'ASC']] })),
    wallets: await plain(data.UserCurrency.findAll({ order: [['userId', 'ASC']] })),
    ledger: await plain(data.Transaction.findAll({ order: [['id', 'ASC']] })),
    days: await plain(data.GuildDailyStats.findAll({ order: [['day', 'ASC']] })),
    cases: await plain(data.ModerationLog.findAll({ order: [['caseNumber', 'ASC']] })),
    reports: await plain(data.ModerationReport.findAll({ order: [['id', 'ASC']] })),
    shop: await plain(data.ShopItem.findAll({ order: [['id', 'ASC']] }), ['createdAt']),
    inventory: await plain(data.UserInventory.findAll({ order: [['id', 'ASC']] }), ['itemId']),
    announcements: await plain(data.Announcement.findAll({ order: [['id', 'ASC']] })),
    reactions: await plain(data.ReactionRoleEvent.findAll({ order: [['id', 'ASC']] }), ['reactionRoleId']),
  };
}

describe('the demo history', () => {
  const products: Product[] = [];
  const start = async (env: NodeJS.ProcessEnv = {}, clock = new ManualClock(START)) => {
    const product = await startTestProduct({ ...DEMO, ...env }, { clock });
    products.push(product);
    return product;
  };
  after(async () => {
    for (const product of products) await product.close();
  });

  test('is written on the first start, true to the rules: balances are the ledger, levels follow XP, stock follows purchases', async () => {
    const product = await start();
    const guildId = product.sandbox?.world.demo.guildId ?? '';
    const data = product.store.guild(guildId);
    const levels = await data.UserLevel.findAll();
    assert.ok(levels.length >= 25, `${levels.length} members with XP`);
    for (const row of levels) assert.deepEqual({ level: row.level, xp: row.xp }, levelFromTotal(row.totalXp), `${row.userId}'s level`);
    const wallets = await data.UserCurrency.findAll();
    assert.ok(wallets.length >= 25);
    for (const wallet of wallets) {
      const sum = (await product.store.models.Transaction.sum('amount', { where: { guildId, userId: wallet.userId } })) ?? 0;
      assert.equal(wallet.balance, sum, `${wallet.userId}'s balance is the sum of their ledger`);
    }
    const items = await data.ShopItem.findAll();
    assert.equal(items.length, 4);
    let bought = 0;
    for (const item of items) {
      const owned = (await product.store.models.UserInventory.sum('quantity', { where: { guildId, itemId: item.id } })) ?? 0;
      const rows = await data.Transaction.count({ where: { type: 'purchase', itemId: item.id } });
      assert.equal(item.purchaseCount, owned, `${item.name}: purchases and inventory agree`);
      assert.equal(item.purchaseCount, rows, `${item.name}: purchases and ledger agree`);
      if (item.name === 'Mystery Box') assert.equal(item.stock, 40 - item.purchaseCount);
      if (item.name === 'Golden Frame') assert.equal(item.stock, 5 - item.purchaseCount);
      bought += item.purchaseCount;
    }
    assert.ok(bought >= 10, `${bought} purchases`);
    assert.ok((await data.ModerationLog.count()) >= 6);
    assert.equal(await data.ModerationReport.count({ where: { status: 'open' } }), 3);
    assert.equal(await data.Announcement.count({ where: { status: 'sent' } }), 4);
    // What the product knows of Discord holds in the sandbox: the ban, the roles menu with its reactions.
    const world = product.sandbox?.world;
    const guild = world?.guilds.get(guildId);
    const ban = await data.ModerationLog.findOne({ where: { action: 'ban' } });
    assert.ok(ban && guild?.bans.has(ban.targetId) && !guild.members.has(ban.targetId));
    const menu = await data.ReactionRole.findOne();
    assert.ok(menu);
    const message = world?.messages.get(menu.messageId);
    assert.ok(message && message.reactions.size === 3, 'the roles menu is in #welcome with its reactions');
  });

  test("every 30-day chart has data and the lists are not empty, as the dashboard's routes answer them", async () => {
    const product = products[0] ?? (await start());
    const guildId = product.sandbox?.world.demo.guildId ?? '';
    const admin = await signInAs(product, product.sandbox?.world.demo.adminUserId ?? '');
    const base = `/api/servers/${guildId}`;
    const overview = (await admin.get(`${base}/overview`).expect(200)).body as { activity: { messages: number; joins: number }[]; activeUsers: number };
    assert.equal(overview.activity.length, 30);
    assert.ok(overview.activity.filter((day) => day.messages > 0).length >= 28, 'messages on (almost) every day');
    assert.ok(overview.activity.some((day) => day.joins > 0));
    assert.ok(overview.activeUsers >= 15);
    const leveling = (await admin.get(`${base}/leveling/stats`).expect(200)).body as { daily: { xp: number }[] };
    assert.ok(leveling.daily.filter((day) => day.xp > 0).length >= 28);
    const roles = (await admin.get(`${base}/reaction-roles/stats`).expect(200)).body as { daily: { assignments: number }[]; assignments: number };
    assert.ok(roles.assignments > 0 && roles.daily.some((day) => day.assignments > 0));
    const logs = (await admin.get(`${base}/moderation/logs`).expect(200)).body as { total: number };
    assert.ok(logs.total >= 6);
    const reports = (await admin.get(`${base}/moderation/reports?status=open`).expect(200)).body as { total: number };
    assert.equal(reports.total, 3);
    const leaderboard = (await admin.get(`${base}/leaderboard/levels`).expect(200)).body as { total: number };
    assert.ok(leaderboard.total >= 25);
  });

  test('the same seed and clock write the same rows', async () => {
    const [first] = products;
    assert.ok(first);
    const second = await start();
    assert.deepEqual(await dump(second), await dump(first));
  });

  test('a restart writes nothing twice and gives a fresh sandbox the same month; the reset makes a month ending now', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'demo-history-'));
    try {
      const clock = new ManualClock(START);
      const env = { DATABASE_URL: `sqlite:${path.join(dir, 'bot.sqlite')}` };
      const first = await start(env, clock);
      const before = await dump(first);
      const menu = await first.store.guild(first.sandbox?.world.demo.guildId ?? '').ReactionRole.findOne();
      await first.close();
      clock.advance(2 * 86_400_000);
      const again = await start(env, clock);
      const guildId = again.sandbox?.world.demo.guildId ?? '';
      assert.deepEqual(await dump(again), before, 'nothing written twice');
      assert.ok(menu && again.sandbox?.world.messages.get(menu.messageId), "the roles menu's message is in the new sandbox");

      // Something done in the demo since, then the reset: gone, and the month ends now.
      await again.store.guild(guildId).ModerationLog.destroy({ where: { action: 'warn' } });
      const answer = await fetch(`${again.sandbox?.url}/_sandbox/demo/reset`, { method: 'POST' });
      assert.equal(answer.status, 200);
      const outcome = (await answer.json()) as { anchor: string; cases: number; ms: number };
      assert.equal(outcome.anchor, new Date(START + 2 * 86_400_000).toISOString());
      console.log(`demo history reset: ${outcome.ms} ms`);
      const after = await dump(again);
      assert.equal(after.cases.length, before.cases.length);
      assert.equal(after.reports.filter((report) => report.status === 'open').length, 3);
      assert.notDeepEqual(after.days, before.days, 'the month moved');
      assert.equal(after.days.at(-1)?.day, '2026-11-22');
      const marker = await again.services.guildState.get(guildId, 'demoHistory');
      assert.equal(marker?.anchor, outcome.anchor);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the reset control says so in words when the product made no history (DEMO_HISTORY off)', async () => {
    const product = await start({ DEMO_HISTORY: 'off' });
    assert.equal(await product.store.guild(product.sandbox?.world.demo.guildId ?? '').UserLevel.count(), 0);
    const answer = await fetch(`${product.sandbox?.url}/_sandbox/demo/reset`, { method: 'POST' });
    assert.equal(answer.status, 409);
    assert.match(((await answer.json()) as { message: string }).message, /DEMO_HISTORY/);
  });
});
