// Role grants on the dashboard and where several roles are given at once: GET /role-grants lists
// the waiting and failed grants (401, 400, 403, then 200), Retry now tries one at once and Dismiss
// drops it (409 once settled), stacked level rewards give every role the bot can give when one of
// them is above it, naming only that one, and a level reward Discord did not answer waits (no
// failure) and is given on its retry only while the member's level still earns it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DiscordRefused } from '../../src/core/errors';
import { syncRewards } from '../../src/features/leveling/rewards';
import { RoleGrantListSchema, RoleGrantSchema, ROLE_GRANT_MESSAGES } from '../../src/shared/role-grants';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember, createFailedGrant } from '../factories';

const h = useHarness();
const base = () => `/api/servers/${h().guildId}/role-grants`;
const admin = () => h().signIn(h().demo.adminUserId);
const roleIds = (userId: string) => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds ?? [];

/** A failed grant of the Member role to a new member, as the retrier leaves one after a storm. */
async function buildFailedGrant(overrides: { lastError?: string } = {}) {
  const member = await buildMember(h());
  const grant = await createFailedGrant(h().product.services, {
    guildId: h().guildId,
    userId: member.userId,
    memberName: member.username,
    roleId: h().demo.roles.member,
    roleName: 'Member',
    ...overrides,
  });
  return { ...member, grant };
}

/** A call to the API without a session (a browser's same-origin request). */
const anonymous = (method: string, path: string) => fetch(`${h().product.url}${path}`, { method, headers: { Origin: h().product.config.publicUrl } });

describe('role grants on the dashboard', () => {
  test('GET /role-grants: 401 signed out, 400 naming the server, 403 for a member, 200 with the failed grant in words', async () => {
    const { userId, username, grant } = await buildFailedGrant();
    assert.equal((await anonymous('GET', base())).status, 401);
    const session = await admin();
    const bad = await session.get('/api/servers/not-an-id/role-grants').expect(400);
    assert.ok(bad.body.fields.guildId);
    const member = await buildAccount(h());
    await member.session.get(base()).expect(403);
    const list = RoleGrantListSchema.parse((await session.get(base()).expect(200)).body);
    const listed = list.items.find((item) => item.id === grant.id);
    assert.deepEqual(listed, {
      id: grant.id,
      userId,
      memberName: username,
      roleId: h().demo.roles.member,
      roleName: 'Member',
      action: 'add',
      source: 'memberRole',
      purpose: 'Auto-assigned member role',
      status: 'failed',
      attempts: 6,
      nextAttemptAt: null,
      lastError: 'Discord did not answer (503 Service Unavailable). The bot tried 6 times and gave up.',
      createdAt: grant.createdAt.toISOString(),
      updatedAt: grant.updatedAt.toISOString(),
    });
    assert.ok(list.failed >= 1);
  });

  test(
    'POST /role-grants/:id/retry: 401, 400 naming the id, 403 for a member, 200 trying it at once (the rule re-checked), then 409 once ' + 'settled',
    async () => {
      const session = await admin();
      await session.put(`/api/servers/${h().guildId}/settings`, { autoRoleEnabled: true, memberRoleId: h().demo.roles.member }).expect(200);
      const { userId, grant } = await buildFailedGrant();
      assert.equal((await anonymous('POST', `${base()}/${grant.id}/retry`)).status, 401);
      const bad = await session.post(`${base()}/abc/retry`).expect(400);
      assert.equal(bad.body.fields.id, 'ID must be a role grant id.');
      const member = await buildAccount(h());
      await member.session.post(`${base()}/${grant.id}/retry`).expect(403);
      const retried = RoleGrantSchema.parse((await session.post(`${base()}/${grant.id}/retry`).expect(200)).body);
      assert.deepEqual([retried.status, retried.attempts], ['done', 1]);
      assert.ok(roleIds(userId).includes(h().demo.roles.member), 'the role given');
      const again = await session.post(`${base()}/${grant.id}/retry`).expect(409);
      assert.equal(again.body.message, ROLE_GRANT_MESSAGES.settled);
      const missing = await session.post(`${base()}/999999/retry`).expect(404);
      assert.equal(missing.body.message, ROLE_GRANT_MESSAGES.notFound);

      // The rule says no more: the retry drops it rather than hand the role out.
      await session.put(`/api/servers/${h().guildId}/settings`, { autoRoleEnabled: false }).expect(200);
      const unwanted = await buildFailedGrant();
      const dropped = RoleGrantSchema.parse((await session.post(`${base()}/${unwanted.grant.id}/retry`).expect(200)).body);
      assert.deepEqual([dropped.status, dropped.lastError], ['dropped', 'Auto-assign is off now, or gives another role.']);
      assert.ok(!roleIds(unwanted.userId).includes(h().demo.roles.member));
    },
  );

  test('DELETE /role-grants/:id: 401, 400 naming the id, 403 for a member, 204 dismissing it (kept as dropped, listed no more), then 409', async () => {
    const { grant } = await buildFailedGrant();
    assert.equal((await anonymous('DELETE', `${base()}/${grant.id}`)).status, 401);
    const session = await admin();
    const bad = await session.delete(`${base()}/0`).expect(400);
    assert.equal(bad.body.fields.id, 'ID must be a role grant id.');
    const member = await buildAccount(h());
    await member.session.delete(`${base()}/${grant.id}`).expect(403);
    await session.delete(`${base()}/${grant.id}`).expect(204);
    await grant.reload();
    assert.deepEqual([grant.status, grant.lastError], ['dropped', ROLE_GRANT_MESSAGES.dismissed]);
    const list = RoleGrantListSchema.parse((await session.get(base()).expect(200)).body);
    assert.ok(!list.items.some((item) => item.id === grant.id));
    const again = await session.delete(`${base()}/${grant.id}`).expect(409);
    assert.equal(again.body.message, ROLE_GRANT_MESSAGES.settled);
  });
});

describe('several roles at once', () => {
  test('stacked level rewards: a reward role moved above the bot does not stop the others; the refusal names only it and is kept as failed', async () => {
    const session = await admin();
    const guildId = h().guildId;
    const senior = h().world.requireGuild(guildId).roles.get(h().demo.roles.aboveBot);
    assert.ok(senior);
    const originalPosition = senior.position;
    const bot = () => h().product.client.guilds.cache.get(guildId)?.members.me?.roles.highest;
    const seniorSeen = () => h().product.client.guilds.cache.get(guildId)?.roles.cache.get(senior.id);
    // Added while below the bot (the route refuses a role above it), then moved above it in Discord.
    h().world.structure.updateRole(guildId, senior, { position: 1 });
    await waitFor(() => (seniorSeen()?.comparePositionTo(bot() ?? senior.id) ?? 0) < 0, 5000, 'the role below the bot');
    const rewards = [
      (await session.post(`/api/servers/${guildId}/leveling/rewards`, { level: 2, roleId: senior.id }).expect(200)).body as { id: number },
      (await session.post(`/api/servers/${guildId}/leveling/rewards`, { level: 3, roleId: h().demo.roles.member }).expect(200)).body as { id: number },
    ];
    h().world.structure.updateRole(guildId, senior, { position: originalPosition });
    await waitFor(() => (seniorSeen()?.comparePositionTo(bot() ?? senior.id) ?? 0) > 0, 5000, 'the role above the bot again');

    const { userId } = await buildMember(h());
    await assert.rejects(syncRewards(h().product.services, guildId, userId, 3), (error: unknown) => {
      assert.ok(error instanceof DiscordRefused);
      assert.equal(error.message, 'AwesomeBot cannot give @Senior Staff: it needs Manage Roles and a role above it.');
      return true;
    });
    assert.ok(roleIds(userId).includes(h().demo.roles.member), 'the level 3 reward given');
    assert.ok(!roleIds(userId).includes(senior.id));
    const list = RoleGrantListSchema.parse((await session.get(base()).expect(200)).body);
    const failed = list.items.find((item) => item.userId === userId);
    assert.deepEqual([failed?.status, failed?.source, failed?.purpose, failed?.roleName], ['failed', 'levelReward', 'Level 2 reward', 'Senior Staff']);
    assert.equal(list.items.filter((item) => item.userId === userId).length, 1, 'only the refused role');
    for (const reward of rewards) await session.delete(`/api/servers/${guildId}/leveling/rewards/${reward.id}`).expect(204);
  });
});

describe('a level reward Discord did not answer', () => {
  test('waits instead of failing; its retry gives it while the level earns it, and drops it once the level no longer does', async () => {
    const session = await admin();
    const guildId = h().guildId;
    const gold = await h().control<{ id: string }>('POST', `/guilds/${guildId}/roles`, { name: 'Gold' });
    await waitFor(() => h().product.client.guilds.cache.get(guildId)?.roles.cache.has(gold.body.id), 5000, 'the role to reach the bot');
    await session.post(`/api/servers/${guildId}/leveling/rewards`, { level: 5, roleId: gold.body.id }).expect(200);
    const [earning, demoted] = [await buildMember(h()), await buildMember(h())];
    for (const member of [earning, demoted]) {
      await h().product.store.models.UserLevel.create({
        guildId,
        userId: member.userId,
        level: 5,
        xp: 0,
        totalXp: 2000,
        messagesCount: 1,
        username: member.username,
      });
    }
    await h().control('POST', '/faults', { route: 'PUT /guilds/:id/members/:id/roles/:id', status: 503, count: 50 });
    try {
      for (const member of [earning, demoted]) await syncRewards(h().product.services, guildId, member.userId, 5);
    } finally {
      await h().control('POST', '/faults', { clear: true });
    }
    const list = RoleGrantListSchema.parse((await session.get(base()).expect(200)).body);
    const waiting = [earning, demoted].map((member) => list.items.find((item) => item.userId === member.userId && item.roleId === gold.body.id));
    assert.deepEqual(
      waiting.map((item) => [item?.status, item?.purpose]),
      [
        ['pending', 'Level 5 reward'],
        ['pending', 'Level 5 reward'],
      ],
    );

    await h().product.store.models.UserLevel.update({ level: 3 }, { where: { guildId, userId: demoted.userId } });
    const [given, dropped] = await Promise.all(
      waiting.map(async (item) => RoleGrantSchema.parse((await session.post(`${base()}/${item?.id ?? 0}/retry`).expect(200)).body)),
    );
    assert.equal(given?.status, 'done');
    assert.ok(roleIds(earning.userId).includes(gold.body.id));
    assert.deepEqual([dropped?.status, dropped?.lastError], ['dropped', 'Level 3 no longer earns this role.']);
    assert.ok(!roleIds(demoted.userId).includes(gold.body.id));
  });
});
