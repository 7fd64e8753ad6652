// Resilience of the gateway (issue 13): the connection dropped every few hundred messages while
// members chat, join and are moderated from the dashboard. After RESUME nothing is lost and
// nothing is doubled: each member's message count, XP and coins match what was posted, each
// moderation action is one case with consecutive numbers, a member who joined during a drop is
// welcomed once. Discord delivers at least once: a RESUME from an older sequence replays events
// the bot already handled, and they must count for nothing (text commands included). A full
// reconnect (new session, IDENTIFY) loses the gap as on Discord, so only "nothing doubled" holds.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { before, describe, test } from 'node:test';
import { Events, Status } from 'discord.js';
import { QueryTypes } from 'sequelize';
import { ManualClock } from '../../src/core/clock';
import type { ModerationLog } from '../../src/db/models/community';
import { ModerationCaseSchema } from '../../src/shared/moderation';
import type { Harness } from '../helpers/harness';
import { storeBackends } from '../helpers/store';
import { saveCommunitySettings, useProductOn } from './kit';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';
import { assertLedgerWhole } from '../economy/ledger';
import { levelingState } from '../../src/features/leveling/state';

/** The session discord.js keeps for RESUME (private in its typings). */
type ShardSession = { sessionInfo: { sequence: number } | null };
const shardOf = (h: Harness) => h.product.client.ws.shards.get(0) as unknown as ShardSession;

/** Drops the gateway connection and resolves once discord.js has resumed (or, `event`, identified anew). */
async function dropGateway(h: Harness, event: Events.ShardResume | Events.ShardReady = Events.ShardResume): Promise<void> {
  const back = once(h.product.client, event);
  const armed = await h.control('POST', '/faults', { dropGateway: true });
  assert.equal(armed.status, 204);
  await Promise.race([back, new Promise((_, reject) => setTimeout(() => reject(new Error(`no ${event} within 10 s`)), 10_000).unref())]);
}

for (const backend of storeBackends()) {
  describe(`gateway drops on ${backend.name}`, () => {
    const h = useProductOn(backend, new ManualClock(Date.UTC(2026, 10, 4, 12))); // a Wednesday: no weekend multiplier
    const url = (path: string) => `/api/servers/${h().guildId}${path}`;
    const admin = () => h().signIn(h().demo.adminUserId);
    const post = async (userId: string, content: string) => {
      const posted = await h().control<{ id: string }>('POST', `/channels/${h().demo.channels.general}/messages`, { authorId: userId, content });
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      return posted.body.id;
    };
    /** The member's level row once the bot's accruals are written. */
    const levelsOf = async (userId: string) => {
      await levelingState.of(h().product.services).accruals.flush();
      return h().product.store.models.UserLevel.findOne({ where: { guildId: h().guildId, userId } });
    };
    const walletOf = (userId: string) => h().product.store.models.UserCurrency.findOne({ where: { guildId: h().guildId, userId } });
    /** The coins `messages` earn with no cooldown: the base reward each, plus the bonus of each level reached. */
    const coinsFor = async (userId: string, messages: number) => {
      const settings = await h().product.services.settings.get(h().guildId);
      const level = (await levelsOf(userId))?.level ?? 1;
      return messages * settings.baseReward + (level - 1) * settings.levelUpBonus;
    };
    /** Messages counted in the daily stats so far. */
    const dailyMessages = async () => {
      await h().product.services.activity.flush();
      const [row] = await h().product.store.sequelize.query<{ messages: number | null }>(
        'SELECT SUM("messages") AS "messages" FROM guild_daily_stats WHERE "guildId" = ?',
        {
          type: QueryTypes.SELECT,
          replacements: [h().guildId],
        },
      );
      return Number(row?.messages ?? 0);
    };
    const welcomesOf = async (userId: string) =>
      (await h().messages(h().demo.channels.welcome)).filter((message) => message.bot && message.content.includes(`<@${userId}>`));

    // Every message earns: the coins are then exactly 10 per message.
    before(() => saveCommunitySettings(h(), { xpCooldown: 0 }));

    test(
      'five drops while six members post 300 messages, one joins and the dashboard warns and times out: nothing lost, nothing doubled',
      { timeout: 60_000 },
      async () => {
        const members = await Promise.all(Array.from({ length: 6 }, () => buildMember(h())));
        const targets = await Promise.all(Array.from({ length: 6 }, () => buildMember(h())));
        const session = await admin();
        const statsBefore = await dailyMessages();
        const casesBefore = (await h().product.store.models.ModerationLog.max<number, ModerationLog>('caseNumber', { where: { guildId: h().guildId } })) ?? 0;
        const posted = new Map<string, number>(members.map((member) => [member.userId, 0]));
        let joinerId = '';
        const caseNumbers: number[] = [];

        // The dashboard moderates while the gateway comes and goes (its actions go over REST).
        const moderating = (async () => {
          for (const [i, target] of targets.entries()) {
            const request =
              i % 2 === 0
                ? { action: 'warn', targetId: target.userId, reason: `drop test ${i}` }
                : { action: 'timeout', targetId: target.userId, reason: `drop test ${i}`, duration: '1h' };
            const answer = await session.post(url('/moderation'), request);
            assert.equal(answer.status, 200, JSON.stringify(answer.body));
            caseNumbers.push(ModerationCaseSchema.parse(answer.body).caseNumber);
          }
        })();

        let drops = 0;
        for (let n = 0; n < 300; n += 1) {
          if (n > 0 && n % 50 === 0 && drops < 5) {
            // Posts go on while the bot is away: the drop is armed, not awaited, before the next ones.
            const resumed = dropGateway(h());
            for (let k = 0; k < 5; k += 1, n += 1) {
              const author = members[n % members.length]!.userId;
              await post(author, `while away ${n}`);
              posted.set(author, (posted.get(author) ?? 0) + 1);
            }
            if (drops === 2) joinerId = h().world.addMember(h().guildId, { username: `joined_during_drop_${Date.now()}` }).userId;
            await resumed;
            drops += 1;
          }
          const author = members[n % members.length]!.userId;
          await post(author, `message ${n}`);
          posted.set(author, (posted.get(author) ?? 0) + 1);
        }
        await moderating;
        assert.equal(drops, 5);
        const total = [...posted.values()].reduce((sum, count) => sum + count, 0);
        assert.ok(total >= 300, `${total} posted`);

        // Nothing lost: every message reaches the bot (the waits end when the last one is counted).
        for (const member of members) {
          const expected = posted.get(member.userId) ?? 0;
          await waitFor(async () => ((await levelsOf(member.userId))?.messagesCount ?? 0) >= expected, 10_000, `the messages of ${member.username}`);
        }
        // Nothing doubled: exact counts, and coins and XP that agree with them.
        for (const member of members) {
          const expected = posted.get(member.userId) ?? 0;
          const levels = await levelsOf(member.userId);
          assert.equal(levels?.messagesCount, expected, `messages of ${member.username}`);
          assert.equal(
            (await walletOf(member.userId))?.balance,
            await coinsFor(member.userId, expected),
            `coins of ${member.username}: the base reward per message and the level bonuses`,
          );
          const xp = levels?.totalXp ?? 0;
          assert.ok(xp >= expected * 5 && xp <= expected * 20, `XP ${xp} of ${member.username} is 5-20 per message`);
        }
        assert.equal((await dailyMessages()) - statsBefore, total, "the day's message count is what was posted");
        await assertLedgerWhole(h().product.store, h().guildId);

        // One case per action, numbered on from the last.
        const cases = await h().product.store.models.ModerationLog.findAll({ where: { guildId: h().guildId }, order: [['caseNumber', 'ASC']] });
        const ours = cases.filter((row) => row.caseNumber > casesBefore);
        assert.deepEqual(
          ours.map((row) => row.caseNumber),
          Array.from({ length: targets.length }, (_, i) => casesBefore + i + 1),
        );
        assert.deepEqual(
          [...caseNumbers].sort((a, b) => a - b),
          ours.map((row) => row.caseNumber),
        );
        for (const target of targets) assert.equal(ours.filter((row) => row.targetId === target.userId).length, 1, 'one case per member');

        // The member who joined while the bot was away: welcomed once, given the member role.
        assert.ok(joinerId);
        await waitFor(async () => (await welcomesOf(joinerId)).length > 0, 5000, 'the welcome of the member who joined during a drop');
        await waitFor(() => h().world.requireGuild(h().guildId).members.get(joinerId)?.roleIds.includes(h().demo.roles.member), 5000, 'the member role');
        await levelingState.of(h().product.services).accruals.flush();
        assert.equal((await welcomesOf(joinerId)).length, 1, 'welcomed once');
        assert.equal(await h().product.store.models.WelcomeLog.count({ where: { guildId: h().guildId, userId: joinerId } }), 1);
      },
    );

    test(
      'a RESUME from an older sequence replays events the bot had handled: messages, stats and text and slash commands count once',
      { timeout: 30_000 },
      async () => {
        const chatter = await buildMember(h());
        const giver = await buildMember(h());
        const receiver = await buildMember(h());
        await (await admin()).post(url('/economy/give'), { userId: giver.userId, amount: 100 }).expect(200);
        const statsBefore = await dailyMessages();
        const replied = h().waitForMessage(
          h().demo.channels.general,
          (message) => message.bot && message.content.includes(`gave 7 coins to <@${receiver.userId}>`),
        );
        await post(giver.userId, `!give <@${receiver.userId}> 7`);
        await replied;
        const slashed = await h().slash(giver.userId, 'give', { member: receiver.userId, amount: 5 });
        assert.match(slashed.body.content, /gave 5 coins to/, JSON.stringify(slashed.body));
        // More than discord.js keeps per channel (50), so the replayed ones are not in its cache.
        for (let n = 0; n < 120; n += 1) await post(chatter.userId, `chatter ${n}`);
        await waitFor(async () => (await levelsOf(chatter.userId))?.messagesCount === 120, 10_000, 'the chatter counted');
        const receiverBefore = (await walletOf(receiver.userId))?.balance ?? 0;
        assert.equal(receiverBefore, 7 + 5, 'the gives landed once each');

        // The bot resumes from before the command: Discord sends everything after that sequence again.
        const shard = shardOf(h());
        assert.ok(shard.sessionInfo, 'discord.js keeps a session');
        const repliesBefore = (await h().messages(h().demo.channels.general)).filter(
          (message) => message.bot && message.content.includes('gave 7 coins'),
        ).length;
        shard.sessionInfo.sequence -= 200;
        await dropGateway(h());
        await post(chatter.userId, 'after the replay');
        await waitFor(async () => ((await levelsOf(chatter.userId))?.messagesCount ?? 0) >= 121, 10_000, 'the message after the replay');

        assert.equal((await levelsOf(chatter.userId))?.messagesCount, 121, 'replayed messages count once');
        assert.equal((await walletOf(chatter.userId))?.balance, await coinsFor(chatter.userId, 121));
        assert.equal((await walletOf(receiver.userId))?.balance, receiverBefore, 'the replayed !give and /give did not give again');
        assert.equal((await walletOf(giver.userId))?.balance, 100 - 7 - 5 + (await coinsFor(giver.userId, 1)), 'nor take again');
        const repliesAfter = (await h().messages(h().demo.channels.general)).filter(
          (message) => message.bot && message.content.includes('gave 7 coins'),
        ).length;
        assert.equal(repliesAfter, repliesBefore, 'nor answer again');
        assert.equal((await dailyMessages()) - statsBefore, 122, "replayed messages are not counted again in the day's stats");
        await assertLedgerWhole(h().product.store, h().guildId);
      },
    );

    test('a full reconnect (a new session, IDENTIFY) doubles nothing; what follows is counted exactly', { timeout: 30_000 }, async () => {
      const member = await buildMember(h());
      for (let n = 0; n < 10; n += 1) await post(member.userId, `before ${n}`);
      await waitFor(async () => (await levelsOf(member.userId))?.messagesCount === 10, 5000, 'the first ten');
      // No session to resume: discord.js identifies anew and gets READY and the guilds again.
      shardOf(h()).sessionInfo = null;
      const identified = dropGateway(h(), Events.ShardReady);
      for (let n = 0; n < 10; n += 1) await post(member.userId, `in the gap ${n}`);
      const joiner = h().world.addMember(h().guildId, { username: `joined_in_gap_${Date.now()}` }).userId;
      await identified;
      await waitFor(() => h().product.client.ws.status === Status.Ready, 5000, 'the gateway ready again');
      for (let n = 0; n < 10; n += 1) await post(member.userId, `after ${n}`);
      // Events in a gap that was not resumed may be lost (as on Discord); the last ten are not.
      await waitFor(async () => ((await levelsOf(member.userId))?.messagesCount ?? 0) >= 20, 5000, 'the messages after the reconnect');
      const counted = (await levelsOf(member.userId))?.messagesCount ?? 0;
      assert.ok(counted >= 20 && counted <= 30, `${counted} counted of 30 posted: never more`);
      assert.equal((await walletOf(member.userId))?.balance, await coinsFor(member.userId, counted));
      assert.ok((await welcomesOf(joiner)).length <= 1, 'never welcomed twice');
      assert.ok((await h().product.store.models.WelcomeLog.count({ where: { guildId: h().guildId, userId: joiner } })) <= 1);
      await assertLedgerWhole(h().product.store, h().guildId);
    });
  });
}
