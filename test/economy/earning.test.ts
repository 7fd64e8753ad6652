// Earning through the sandbox: a message earns 5-20 XP times the multipliers and the base reward
// on the cooldown, every message counts, weekends and boosters multiply, level-ups are announced
// pinging only the member with the bonus in the ledger and the role reward given, voice minutes
// earn when the rules allow. (Replayed gateway events: test/resilience/gateway-drops.test.ts.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { inlineWriter } from '../../src/db/writer';
import { Accruals } from '../../src/features/leveling/accruals';
import { WRITE_JOBS } from '../../src/write-jobs';
import { levelFromTotal, totalXpForLevel, xpToNextLevel } from '../../src/shared/leveling';
import { SETTINGS_DEFAULTS } from '../../src/shared/settings';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';
import { assertLedgerWhole } from './ledger';
import { levelingState } from '../../src/features/leveling/state';

describe('the level curve', () => {
  test('5L² + 50L + 100 from level 1; totals and levels agree both ways', () => {
    assert.equal(xpToNextLevel(1), 155);
    assert.equal(xpToNextLevel(2), 220);
    assert.deepEqual(levelFromTotal(0), { level: 1, xp: 0 });
    assert.deepEqual(levelFromTotal(154), { level: 1, xp: 154 });
    assert.deepEqual(levelFromTotal(155), { level: 2, xp: 0 });
    assert.deepEqual(levelFromTotal(155 + 220 + 10), { level: 3, xp: 10 });
    for (const level of [1, 2, 5, 17, 60]) assert.equal(levelFromTotal(totalXpForLevel(level)).level, level);
  });
});

const clock = new ManualClock(Date.UTC(2026, 10, 4, 12)); // a Wednesday
const h = useHarness({}, { clock });

/** The member's row after the next flush. */
async function levelsOf(userId: string) {
  await levelingState.of(h().product.services).accruals.flush();
  return h().product.store.models.UserLevel.findOne({ where: { guildId: h().guildId, userId } });
}
async function walletOf(userId: string) {
  return h().product.store.models.UserCurrency.findOne({ where: { guildId: h().guildId, userId } });
}
const post = (userId: string, content = 'hello there', channelId = h().demo.channels.general) =>
  h().control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId: userId, content });
/** Waits until the bot has seen `count` more messages of the member (they are accrued as they arrive). */
async function postAndSee(userId: string, count = 1) {
  for (let i = 0; i < count; i += 1) await post(userId, `message ${i}`);
  await waitFor(async () => ((await levelsOf(userId))?.messagesCount ?? 0) >= count, 5000, 'the messages to be counted');
}

describe('earning XP and coins', () => {
  test('a message earns 5-20 XP and the base reward; within the cooldown messages count but earn nothing', async () => {
    const { userId } = await buildMember(h());
    await postAndSee(userId);
    const first = await levelsOf(userId);
    assert.ok(first && first.totalXp >= 5 && first.totalXp <= 20, `XP ${first?.totalXp}`);
    assert.equal((await walletOf(userId))?.balance, 10);
    await post(userId, 'again');
    await waitFor(async () => (await levelsOf(userId))?.messagesCount === 2, 5000, 'the second message');
    assert.equal((await levelsOf(userId))?.totalXp, first.totalXp, 'no XP within the cooldown');
    assert.equal((await walletOf(userId))?.balance, 10, 'no coins within the cooldown');
    clock.advance(61_000);
    await post(userId, 'later');
    await waitFor(async () => (await levelsOf(userId))?.messagesCount === 3, 5000, 'the third message');
    assert.ok(((await levelsOf(userId))?.totalXp ?? 0) > first.totalXp);
    assert.equal((await walletOf(userId))?.balance, 20);
    await assertLedgerWhole(h().product.store, h().guildId);
  });

  test('weekends and boosters multiply', async () => {
    const saved = await (
      await h().signIn(h().demo.adminUserId)
    ).put(`/api/servers/${h().guildId}/settings`, { weekendMultiplier: 3, boostMultiplier: 4, textMultiplier: 1 });
    assert.equal(saved.status, 200);
    clock.set(Date.UTC(2026, 10, 7, 12)); // Saturday
    const weekend = await buildMember(h());
    await postAndSee(weekend.userId);
    const weekendXp = (await levelsOf(weekend.userId))?.totalXp ?? 0;
    assert.ok(weekendXp >= 15 && weekendXp <= 60, `weekend XP ${weekendXp}`);
    clock.set(Date.UTC(2026, 10, 9, 12)); // Monday
    const booster = await buildMember(h());
    await h().control('PUT', `/guilds/${h().guildId}/boosts/${booster.userId}`);
    await waitFor(
      () => h().product.client.guilds.cache.get(h().guildId)?.members.cache.get(booster.userId)?.premiumSinceTimestamp,
      5000,
      'the boost to reach the bot',
    );
    await postAndSee(booster.userId);
    const boosterXp = (await levelsOf(booster.userId))?.totalXp ?? 0;
    assert.ok(boosterXp >= 20 && boosterXp <= 80, `booster XP ${boosterXp}`);
    await (await h().signIn(h().demo.adminUserId)).put(`/api/servers/${h().guildId}/settings`, { weekendMultiplier: 1.5, boostMultiplier: 2 }).expect(200);
  });

  test('a level-up is announced where it happened pinging only the member, with the bonus in the ledger and the role reward', async () => {
    const session = await h().signIn(h().demo.adminUserId);
    await session.put(`/api/servers/${h().guildId}/settings`, { xpCooldown: 0, textMultiplier: 10 }).expect(200);
    await session.post(`/api/servers/${h().guildId}/leveling/rewards`, { level: 2, roleId: h().demo.roles.member }).expect(200);
    const { userId } = await buildMember(h());
    const announced = h().waitForMessage(h().demo.channels.general, (message) => message.bot && message.content.includes('reached **level 2**'));
    // 50-200 XP a message: one at a time, the member passes through level 2 (155) before 3 (375).
    for (let sent = 1; ((await levelsOf(userId))?.level ?? 1) < 2; sent += 1) {
      await post(userId, `climbing ${sent}`);
      await waitFor(async () => (await levelsOf(userId))?.messagesCount === sent, 5000, 'the message to be counted');
    }
    const announcement = await announced;
    assert.match(announcement.content, new RegExp(`^🎉 <@${userId}> reached \\*\\*level 2\\*\\*! \\+100 coins`));
    assert.deepEqual(announcement.pinged, { users: [userId], roles: [], everyone: false });
    const bonus = await h().product.store.models.Transaction.findOne({ where: { guildId: h().guildId, userId, description: 'Level 2 bonus' } });
    assert.equal(bonus?.amount, 100);
    await waitFor(() => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds.includes(h().demo.roles.member), 5000, 'the level 2 reward');
    await session.put(`/api/servers/${h().guildId}/settings`, { xpCooldown: 60, textMultiplier: 1 }).expect(200);
    await assertLedgerWhole(h().product.store, h().guildId);
  });

  test('voice: a full minute with another human, unmuted and not in the AFK channel, earns XP', async () => {
    const [a, b, muted, alone] = [await buildMember(h()), await buildMember(h()), await buildMember(h()), await buildMember(h())];
    const guild = h().guildId;
    await h().control('POST', `/guilds/${guild}/voice`, { userId: a.userId, channelId: h().demo.channels.voice });
    await h().control('POST', `/guilds/${guild}/voice`, { userId: b.userId, channelId: h().demo.channels.voice });
    await h().control('POST', `/guilds/${guild}/voice`, { userId: muted.userId, channelId: h().demo.channels.voice, selfMute: true });
    await h().control('POST', `/guilds/${guild}/voice`, { userId: alone.userId, channelId: h().demo.channels.afk });
    await waitFor(() => h().product.client.guilds.cache.get(guild)?.voiceStates.cache.get(alone.userId)?.channelId, 5000, 'the voice states to reach the bot');
    const { voiceXp } = levelingState.of(h().product.services);
    await voiceXp.tick();
    clock.advance(3 * 60_000 + 5_000);
    await voiceXp.tick();
    const [xpA = 0, xpB = 0, xpMuted, xpAlone] = await Promise.all([a, b, muted, alone].map(async (member) => (await levelsOf(member.userId))?.totalXp ?? 0));
    // 3 minutes at 5-20 XP times the voice multiplier (0.5), rounded per minute.
    assert.ok(xpA >= 9 && xpA <= 30, `A earned ${xpA}`);
    assert.ok(xpB >= 9 && xpB <= 30, `B earned ${xpB}`);
    assert.equal(xpMuted, 0, 'a muted member earns nothing');
    assert.equal(xpAlone, 0, 'the AFK channel earns nothing');
    for (const member of [a, b, muted, alone]) await h().control('POST', `/guilds/${guild}/voice`, { userId: member.userId, channelId: null });
  });
});

describe('the pipeline itself', () => {
  test('a failed flush keeps its accruals and the next one writes them (replays are dropped earlier, by the bot: test/resilience)', async () => {
    const store = h().product.store;
    const accruals = new Accruals({
      writer: inlineWriter(store.sequelize, WRITE_JOBS),
      clock,
      logger: h().product.services.logger,
      settings: { get: async () => SETTINGS_DEFAULTS },
    });
    const input = {
      guildId: '111111111111111111',
      userId: '222222222222222222',
      username: 'pat',
      messageId: '333333333333333333',
      channelId: '444444444444444444',
      booster: false,
    };
    accruals.message(input, { ...SETTINGS_DEFAULTS, xpCooldown: 0 });
    const original = store.sequelize.transaction.bind(store.sequelize);
    let failures = 1;
    (store.sequelize as unknown as { transaction: unknown }).transaction = (async (...args: unknown[]) => {
      if (failures-- > 0) throw new Error('the database is gone for a moment');
      return (original as (...rest: unknown[]) => unknown)(...args);
    }) as unknown;
    try {
      await accruals.flush();
      assert.equal(accruals.pendingCount(), 1, 'kept for the next flush');
      await accruals.flush();
    } finally {
      (store.sequelize as unknown as { transaction: unknown }).transaction = original;
    }
    const row = await store.models.UserLevel.findOne({ where: { guildId: input.guildId, userId: input.userId } });
    assert.equal(row?.messagesCount, 1, 'written once, by the second flush');
    assert.equal((await store.models.UserCurrency.findOne({ where: { guildId: input.guildId, userId: input.userId } }))?.balance, 10);
    assert.equal(accruals.pendingCount(), 0);
    await assertLedgerWhole(store, input.guildId);
  });

  test('a flush whose COMMIT landed but was reported as failed is not written twice on retry', async () => {
    const store = h().product.store;
    const accruals = new Accruals({
      writer: inlineWriter(store.sequelize, WRITE_JOBS),
      clock,
      logger: h().product.services.logger,
      settings: { get: async () => SETTINGS_DEFAULTS },
    });
    const input = {
      guildId: '111111111111111112',
      userId: '222222222222222223',
      username: 'sam',
      messageId: '333333333333333334',
      channelId: '444444444444444444',
      booster: false,
    };
    accruals.message(input, { ...SETTINGS_DEFAULTS, xpCooldown: 0 });
    const original = store.sequelize.transaction.bind(store.sequelize);
    let lies = 1;
    // The transaction commits, then the caller hears an error (a connection dropped during COMMIT).
    (store.sequelize as unknown as { transaction: unknown }).transaction = (async (...args: unknown[]) => {
      const result = await (original as (...rest: unknown[]) => Promise<unknown>)(...args);
      if (lies-- > 0) throw new Error('connection lost while committing');
      return result;
    }) as unknown;
    try {
      await accruals.flush();
      assert.equal(accruals.pendingCount(), 1, 'the outcome is unknown: kept to check');
      await accruals.flush();
    } finally {
      (store.sequelize as unknown as { transaction: unknown }).transaction = original;
    }
    const row = await store.models.UserLevel.findOne({ where: { guildId: input.guildId, userId: input.userId } });
    assert.equal(row?.messagesCount, 1, 'counted once');
    assert.equal((await store.models.UserCurrency.findOne({ where: { guildId: input.guildId, userId: input.userId } }))?.balance, 10);
    assert.equal(accruals.pendingCount(), 0);
    await assertLedgerWhole(store, input.guildId);
  });
});
