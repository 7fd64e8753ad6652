// The dashboard's reads are kept a second (services.readCache, keyed per user and URL after the
// access check): a write anyone makes through the dashboard or the bot shows on the next read,
// each user gets their own answer, and someone whose access the live gateway data withdrew gets
// nothing from the cache.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QueryTypes } from 'sequelize';
import { buildAccount, buildGrant, buildMember } from '../factories';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { levelingState } from '../../src/features/leveling/state';

describe('the read cache of guild GET routes', () => {
  const h = useHarness();
  const url = (path: string) => `/api/servers/${h().guildId}${path}`;

  test('a dashboard write shows on the next read; so does a case the bot wrote from a slash command', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const before = (await admin.get(url('/settings')).expect(200)).body as { xpCooldown: number };
    assert.equal(((await admin.get(url('/settings')).expect(200)).body as { xpCooldown: number }).xpCooldown, before.xpCooldown);
    await admin.put(url('/settings'), { xpCooldown: before.xpCooldown + 3 }).expect(200);
    assert.equal(((await admin.get(url('/settings')).expect(200)).body as { xpCooldown: number }).xpCooldown, before.xpCooldown + 3);

    const target = await buildMember(h());
    const logs = async () => ((await admin.get(url(`/moderation/logs?q=${target.userId}`)).expect(200)).body as { total: number }).total;
    assert.equal(await logs(), 0);
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const reply = await h().slash(moderator.userId, 'warn', { member: target.userId, reason: 'Cached?' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(await logs(), 1, 'the case written by the bot is read at once');
  });

  test('after an XP flush, the answers that follow chat are read again; the others are not', async (t) => {
    const { services } = h().product;
    const admin = await h().signIn(h().demo.adminUserId);
    await admin.put(url('/settings'), { levelingEnabled: true }).expect(200);
    const member = await buildMember(h());
    // A message the bot counts, then written by a flush.
    const chat = async (content: string) => {
      const posted = await h().control('POST', `/channels/${h().demo.channels.general}/messages`, { authorId: member.userId, content });
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      await waitFor(async () => levelingState.of(services).accruals.pendingCount() > 0 || null, 5000, 'the message to be counted');
      await levelingState.of(services).accruals.flush();
    };
    await chat('first words');
    // The member's message count on their rank card (/members/:id/profile follows chat).
    const countOf = async () => ((await admin.get(url(`/members/${member.userId}/profile`)).expect(200)).body as { messagesCount: number }).messagesCount;
    const rewardCount = async () => ((await admin.get(url('/leveling/rewards')).expect(200)).body as unknown[]).length;
    const filled = Date.now();
    const count = await countOf();
    const rewards = await rewardCount();
    assert.equal(count, 1);
    // Changed behind the models (no write hook forgets anything): only a refresh shows them.
    const { sequelize } = services.store;
    await sequelize.query('UPDATE user_levels SET "messagesCount" = "messagesCount" + 1000 WHERE "guildId" = ? AND "userId" = ?', {
      replacements: [h().guildId, member.userId],
    });
    const roleId = h().demo.roles.moderator;
    await sequelize.query('INSERT INTO level_rewards ("guildId", "level", "roleId", "createdAt") VALUES (?, 77, ?, ?)', {
      replacements: [h().guildId, roleId, new Date()],
      type: QueryTypes.INSERT,
    });
    await chat('more words');
    // The flush marked the rank card stale: it is read again at once (the stale answer may be served while that runs).
    await waitFor(async () => (await countOf()) === 1002 || null, 900, 'the rank card to be read again');
    // A stale answer is served once while it is read again: a second read would show the refresh.
    await rewardCount();
    // Room for a refresh the first read would have started (none should be): the check below only
    // holds while the answer is inside its second, and says so when the machine was too slow to tell.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rewardsNow = await rewardCount();
    if (Date.now() - filled < 900) assert.equal(rewardsNow, rewards, 'the rewards answer was kept: the flush does not touch it');
    else t.diagnostic('too slow to tell whether the rewards answer was kept (its second had passed)');
  });

  test('reads that the route layer does not cache (the leaderboard, a CSV export) forget nothing', async (t) => {
    const admin = await h().signIn(h().demo.adminUserId);
    const rewardCount = async () => ((await admin.get(url('/leveling/rewards')).expect(200)).body as unknown[]).length;
    const filled = Date.now();
    const rewards = await rewardCount();
    await h().product.services.store.sequelize.query('INSERT INTO level_rewards ("guildId", "level", "roleId", "createdAt") VALUES (?, 78, ?, ?)', {
      replacements: [h().guildId, h().demo.roles.moderator, new Date()],
      type: QueryTypes.INSERT,
    });
    await admin.get(url('/leaderboard/levels')).expect(200);
    await admin.get(url('/economy/stats')).expect(200);
    await admin.get(url('/transactions/export')).expect(200);
    const rewardsNow = await rewardCount();
    if (Date.now() - filled < 900) assert.equal(rewardsNow, rewards, 'the rewards answer was kept');
    else t.diagnostic('too slow to tell whether the rewards answer was kept (its second had passed)');
  });

  test('each user reads their own answer, and a withdrawn access is refused, cached answer or not', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    const viewer = await buildAccount(h());
    await buildGrant(h(), { subjectId: viewer.userId, level: 'view' });
    const adminView = (await admin.get(url('/settings')).expect(200)).body as { access: string };
    const viewerView = (await viewer.session.get(url('/settings')).expect(200)).body as { access: string };
    assert.equal(adminView.access, 'admin');
    assert.equal(viewerView.access, 'view');

    // The member leaves the server: the next read is refused although its answer is cached.
    const left = await h().control('DELETE', `/guilds/${h().guildId}/members/${viewer.userId}`);
    assert.ok(left.status < 300, JSON.stringify(left.body));
    // Once the bot has the gateway's GUILD_MEMBER_REMOVE: sooner than the cached answer's second ends.
    const refused = await waitFor(
      async () => {
        const response = await viewer.session.get(url('/settings'));
        return response.status === 200 ? null : response;
      },
      900,
      'the read to be refused',
    );
    assert.ok(refused.status === 403 || refused.status === 404, `answered ${refused.status}`);
  });
});
