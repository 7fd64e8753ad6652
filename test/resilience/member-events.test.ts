// Member events across gateway drops under bulk chat (issue 20, point 2). With chat flowing, the
// connection drops again and again; while the bot is away members join, leave, get roles and
// react. A RESUME replays those events before RESUMED, when discord.js does not emit member events
// itself; a new session (IDENTIFY after the old one is gone) replays nothing, and the bot reads the
// gap back. Either way every join, leave, role change and reaction reaches the features exactly
// once: joiners welcomed and given the member role once, reactions giving their role once.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { Events } from 'discord.js';
import { ManualClock } from '../../src/core/clock';
import { listener, type Feature } from '../../src/core/feature';
import { FEATURES } from '../../src/features';
import { ReactionRoleSchema } from '../../src/shared/reaction-roles';
import { useHarness, type Harness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';
import { saveCommunitySettings } from './kit';
import { levelingState } from '../../src/features/leveling/state';

/** What the features' listeners were handed, per event and member: a feature of the test's own. */
const seen = new Map<string, number>();
const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
const countingFeature: Feature = {
  name: 'test-counter',
  listeners: [
    listener(Events.GuildMemberAdd, 'CountJoins', (_services, member) => void count(`join:${member.id}`)),
    listener(Events.GuildMemberRemove, 'CountLeaves', (_services, member) => void count(`leave:${member.id}`)),
    listener(Events.GuildMemberUpdate, 'CountRoleChanges', (_services, old, now) => {
      for (const roleId of now.roles.cache.keys()) if (!old.roles.cache.has(roleId)) count(`role:${now.id}:${roleId}`);
    }),
    listener(Events.MessageReactionAdd, 'CountReactions', (_services, reaction, user) => void count(`reaction:${user.id}:${reaction.message.id}`)),
  ],
};

/** The session discord.js keeps for RESUME (private in its typings). */
type ShardSession = { sessionInfo: { sequence: number } | null };

const clock = new ManualClock(Date.UTC(2026, 10, 4, 12));
const h = useHarness({}, { clock, features: [...FEATURES, countingFeature] });

/** Drops the gateway; resolves once discord.js has resumed, or (`fresh`) identified anew after its session was forgotten. */
async function drop(harness: Harness, fresh = false): Promise<void> {
  if (fresh) (harness.product.client.ws.shards.get(0) as unknown as ShardSession).sessionInfo = null;
  const back = once(harness.product.client, fresh ? Events.ShardReady : Events.ShardResume);
  const armed = await harness.control('POST', '/faults', { dropGateway: true });
  assert.equal(armed.status, 204);
  await Promise.race([back, sleep(10_000, null, { ref: false }).then(() => Promise.reject(new Error('the gateway did not come back within 10 s')))]);
}

describe('member events across gateway drops under bulk chat', () => {
  let roleMessageId = '';
  let chatting = true;
  let chat: Promise<number> = Promise.resolve(0);

  before(async () => {
    await saveCommunitySettings(h());
    const admin = await h().signIn(h().demo.adminUserId);
    const posted = await h().control<{ id: string }>('POST', `/channels/${h().demo.channels.welcome}/messages`, {
      authorId: h().demo.adminUserId,
      content: 'React for the Verified role',
    });
    roleMessageId = posted.body.id;
    ReactionRoleSchema.parse(
      (
        await admin
          .post(`/api/servers/${h().guildId}/reaction-roles`, {
            messageId: roleMessageId,
            channelId: h().demo.channels.welcome,
            emoji: '🎮',
            roleId: h().demo.roles.verified,
          })
          .expect(200)
      ).body,
    );
    // Chat flows the whole time: bulk posts in #general, a hundred at a time.
    chat = (async () => {
      let total = 0;
      while (chatting) {
        const response = await h().control<{ count: number }>('POST', `/channels/${h().demo.channels.general}/messages/bulk`, {
          count: 100,
          content: 'chatter {n}',
        });
        assert.equal(response.status, 201, JSON.stringify(response.body));
        total += 100;
        await sleep(5);
      }
      return total;
    })();
  });
  after(async () => {
    chatting = false;
    await chat;
  });

  test('joins, leaves, role changes and reactions while the bot is away: each handled once, none twice', { timeout: 120_000 }, async () => {
    const rounds = 6;
    const stayers = await Promise.all(Array.from({ length: rounds }, () => buildMember(h())));
    const leavers = await Promise.all(Array.from({ length: rounds }, () => buildMember(h())));
    const reactors = await Promise.all(Array.from({ length: rounds }, () => buildMember(h())));
    const joiners: string[] = [];
    const { world, guildId } = h();
    for (let round = 0; round < rounds; round += 1) {
      // Joined-at times differ from round to round, as they would.
      clock.advance(1000);
      // The changes happen the moment discord.js sees the connection close, so they reach it in the
      // RESUME's replay (before RESUMED); round 3 loses its session: discord.js identifies anew,
      // nothing is replayed, and the gap is read back.
      h().product.client.once(Events.ShardReconnecting, () => {
        joiners.push(world.addMember(guildId, { username: `drop_joiner_${round}` }).userId);
        world.removeMember(guildId, leavers[round]!.userId);
        world.setMemberRoles(guildId, stayers[round]!.userId, [h().demo.roles.verified]);
        const message = world.messages.get(roleMessageId);
        assert.ok(message);
        world.messages.addReaction(message, '🎮', reactors[round]!.userId);
      });
      const back = drop(h(), round === 3);
      await back;
    }

    const { WelcomeLog, ReactionRoleEvent } = h().product.store.models;
    for (const joiner of joiners) {
      await waitFor(async () => (await WelcomeLog.count({ where: { guildId, userId: joiner, status: 'sent' } })) > 0, 15_000, `the welcome of ${joiner}`);
      await waitFor(() => world.requireGuild(guildId).members.get(joiner)?.roleIds.includes(h().demo.roles.member), 15_000, `the member role of ${joiner}`);
      await waitFor(() => seen.get(`join:${joiner}`) === 1 || null, 15_000, `the join of ${joiner} at the features`);
    }
    for (const [round, leaver] of leavers.entries())
      await waitFor(() => seen.get(`leave:${leaver.userId}`) === 1 || null, 15_000, `the leave of round ${round}`);
    for (const [round, stayer] of stayers.entries())
      await waitFor(() => seen.get(`role:${stayer.userId}:${h().demo.roles.verified}`) === 1 || null, 15_000, `the role change of round ${round}`);
    for (const [round, reactor] of reactors.entries()) {
      await waitFor(
        () => world.requireGuild(guildId).members.get(reactor.userId)?.roleIds.includes(h().demo.roles.verified),
        15_000,
        `the reaction role of round ${round}`,
      );
      await waitFor(
        async () => (await ReactionRoleEvent.count({ where: { guildId, userId: reactor.userId, action: 'add' } })) > 0,
        15_000,
        `the reaction of round ${round} recorded`,
      );
    }

    // None twice, once more drops and the chat have had time to repeat anything.
    await drop(h());
    await levelingState.of(h().product.services).accruals.flush();
    for (const joiner of joiners) {
      assert.equal(await WelcomeLog.count({ where: { guildId, userId: joiner } }), 1, `${joiner} welcomed once`);
      assert.equal(seen.get(`join:${joiner}`), 1, `${joiner} joined once`);
    }
    const welcomes = (await h().messages(h().demo.channels.welcome)).filter(
      (message) => message.bot && joiners.some((joiner) => message.content.includes(`<@${joiner}>`)),
    );
    assert.equal(welcomes.length, joiners.length, 'one welcome message per joiner');
    for (const leaver of leavers) assert.equal(seen.get(`leave:${leaver.userId}`), 1);
    for (const stayer of stayers) assert.equal(seen.get(`role:${stayer.userId}:${h().demo.roles.verified}`), 1);
    for (const reactor of reactors) {
      assert.equal(await ReactionRoleEvent.count({ where: { guildId, userId: reactor.userId, action: 'add' } }), 1, 'the reaction role given once');
      assert.ok(
        (seen.get(`reaction:${reactor.userId}:${roleMessageId}`) ?? 0) <= 1,
        'a reaction reaches the features at most once (a new session catches up without one)',
      );
    }
  });
});
