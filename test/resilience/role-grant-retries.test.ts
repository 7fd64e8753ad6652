// Role grants Discord did not answer, retried through the sandbox (the first try and the quick
// recovery: rest-storms.test.ts): the queue survives a restart of the product; a grant no longer
// wanted (the reaction taken off while the bot was offline, auto-assign switched off) is dropped;
// a storm that outlasts the schedule ends as a failed grant that the log channel, the list and the
// diagnostics show, and Retry now gives it; two processes on one database queue a grant once and
// retry it once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Product } from '../../src/main';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { ReactionRoleSchema } from '../../src/shared/reaction-roles';
import { RoleGrantListSchema, RoleGrantSchema, ROLE_GRANT_RETRY_DELAYS_MS } from '../../src/shared/role-grants';
import { restartable, type Restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';
import { roleGrantsFeature } from '../../src/features/role-grants';
import { changeRole } from '../../src/features/role-grants/grants';
import { retryDueGrants } from '../../src/features/role-grants/retry';
import { ROUTES, STORM } from './kit';

/** What a waiting grant says of its last try. */
const DISCORD_SILENT = /^Discord did not answer \(50[023] .*\)\.$/;
const EMOJI = '🔁';

/** The sandbox's control API of a restartable product. */
async function control(r: Restartable, method: string, path: string, body?: unknown): Promise<number> {
  const response = await fetch(`${r.sandbox.url}/_sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return response.status;
}

/** Discord answers 503 to every role given, until cleared. */
async function storm(r: Restartable): Promise<void> {
  assert.equal(await control(r, 'POST', '/faults', { route: ROUTES.addRole, status: 503, count: STORM }), 204);
}
const calm = async (r: Restartable) => assert.equal(await control(r, 'POST', '/faults', { clear: true }), 204);

/** A fresh role and a message whose 🔁 gives it, as the admin adds them. */
async function reactionRole(r: Restartable, name: string) {
  const { world } = r.sandbox;
  const { guildId, channels, adminUserId } = world.demo;
  const role = world.structure.createRole(guildId, { name, position: 1 });
  await waitFor(() => r.product().client.guilds.cache.get(guildId)?.roles.cache.has(role.id), 5000, 'the role to reach the bot');
  const message = world.messages.create(channels.general, { authorId: adminUserId, content: `Pick ${name}` });
  const added = await (
    await r.signIn(adminUserId)
  ).post(`/api/servers/${guildId}/reaction-roles`, { messageId: message.id, channelId: channels.general, emoji: EMOJI, roleId: role.id });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  return { role, message, entry: ReactionRoleSchema.parse(added.body) };
}

/** A member who joined, once every running product has seen them. */
async function joiner(r: Restartable, username: string, products: Product[] = [r.product()]) {
  const { guildId } = r.sandbox.world.demo;
  const member = r.sandbox.world.addMember(guildId, { username });
  await waitFor(
    () => products.every((product) => product.client.guilds.cache.get(guildId)?.members.cache.has(member.userId)),
    5000,
    'the member to reach the bot',
  );
  return member.userId;
}

const rowsOf = (r: Restartable, userId: string) =>
  r.product().store.models.RoleGrantRetry.findAll({ where: { guildId: r.sandbox.world.demo.guildId, userId }, order: [['id', 'ASC']] });
const rolesOf = (r: Restartable, userId: string) => r.sandbox.world.requireGuild(r.sandbox.world.demo.guildId).members.get(userId)?.roleIds ?? [];
const eventsOf = (r: Restartable, entryId: number) =>
  r.product().store.models.ReactionRoleEvent.findAll({ where: { guildId: r.sandbox.world.demo.guildId, reactionRoleId: entryId }, order: [['id', 'ASC']] });
/** The member's only grant, once it is queued. */
const queued = async (r: Restartable, userId: string) => waitFor(async () => (await rowsOf(r, userId))[0], 10_000, 'the queued grant');

describe('role grant retries', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    await r.start();
    const { demo } = r.sandbox.world;
    const saved = await (
      await r.signIn(demo.adminUserId)
    ).put(`/api/servers/${demo.guildId}/settings`, { autoRoleEnabled: true, memberRoleId: demo.roles.member, logChannelId: demo.channels.modLog });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(() => r.close());

  test('a member role Discord did not answer is given once after a restart of the product, when Discord is back', async () => {
    const { demo } = r.sandbox.world;
    await storm(r);
    const userId = await joiner(r, 'restart_joiner');
    const grant = await queued(r, userId);
    assert.equal(grant.status, 'pending');
    assert.match(grant.lastError ?? '', DISCORD_SILENT);

    await r.stop();
    await calm(r);
    r.clock.advance(ROLE_GRANT_RETRY_DELAYS_MS[0] ?? 0);
    await r.start();
    await waitFor(() => rolesOf(r, userId).includes(demo.roles.member), 10_000, 'the role after the restart');
    const [row] = await waitFor(
      async () => {
        const rows = await rowsOf(r, userId);
        return rows[0]?.status === 'done' ? rows : null;
      },
      5000,
      'the grant settled',
    );
    assert.equal(row?.attempts, 2, 'the first try and one retry');
  });

  test('a reaction taken off while the bot was offline: the retry finds it gone and drops the grant', async () => {
    const { role, message, entry } = await reactionRole(r, 'Fickle Colour');
    const userId = await joiner(r, 'fickle_reactor');
    await storm(r);
    assert.equal(await control(r, 'PUT', `/channels/${message.channelId}/messages/${message.id}/reactions/${encodeURIComponent(EMOJI)}/${userId}`), 204);
    const grant = await waitFor(async () => (await rowsOf(r, userId)).find((row) => row.roleId === role.id), 10_000, 'the queued grant');
    assert.equal(grant.source, 'reactionRole');
    await r.stop();
    r.sandbox.world.messages.removeReaction(message, EMOJI, userId);
    await calm(r);
    r.clock.advance(ROLE_GRANT_RETRY_DELAYS_MS[0] ?? 0);
    await r.start();
    const dropped = await waitFor(
      async () => (await rowsOf(r, userId)).find((row) => row.id === grant.id && row.status === 'dropped'),
      10_000,
      'the grant dropped',
    );
    assert.equal(dropped.lastError, 'The member took their reaction off.');
    assert.ok(!rolesOf(r, userId).includes(role.id), 'no role');
    assert.deepEqual(await eventsOf(r, entry.id), [], 'nothing given, nothing failed');
  });

  test('a storm through six tries: failed, said in the log channel, listed and diagnosed; Retry now gives the role once Discord is back', async () => {
    const { demo } = r.sandbox.world;
    await storm(r);
    const userId = await joiner(r, 'long_storm_joiner');
    let grant = await queued(r, userId);
    for (const [index, delay] of ROLE_GRANT_RETRY_DELAYS_MS.entries()) {
      r.clock.advance(delay);
      grant = await waitFor(
        async () => {
          const [row] = await rowsOf(r, userId);
          return row && row.attempts === index + 2 ? row : null;
        },
        30_000,
        `try ${index + 2}`,
      );
      assert.equal(grant.status, index + 2 < 6 ? 'pending' : 'failed');
    }
    assert.match(grant.lastError ?? '', /^Discord did not answer \(50[023] .*\)\. The bot tried 6 times and gave up\.$/);
    assert.ok(!rolesOf(r, userId).includes(demo.roles.member));

    const notice = await waitFor(
      () =>
        r.sandbox.world.messages
          .list(demo.channels.modLog)
          .find((message) => message.embeds[0]?.title === 'Auto-assign failed' && message.embeds[0]?.description?.includes('long_storm_joiner')),
      5000,
      'the failure notice',
    );
    assert.match(notice.embeds[0]?.description ?? '', /^@Member for long_storm_joiner: Discord did not answer/);
    const session = await r.signIn(demo.adminUserId);
    const list = RoleGrantListSchema.parse((await session.get(`/api/servers/${demo.guildId}/role-grants`).expect(200)).body);
    const listed = list.items.find((item) => item.userId === userId);
    assert.deepEqual(
      [listed?.status, listed?.purpose, listed?.roleName, listed?.attempts, listed?.nextAttemptAt],
      ['failed', 'Auto-assigned member role', 'Member', 6, null],
    );
    assert.ok(list.failed >= 1);
    const diagnostics = DiagnosticsSchema.parse((await session.get(`/api/servers/${demo.guildId}/diagnostics?feature=autoRole`).expect(200)).body);
    assert.ok(
      diagnostics.items.some(
        (item) =>
          /^Auto-assigned member role: @Member could not be given to 1 member\. Discord did not answer/.test(item.problem) && /Retry now/.test(item.fix),
      ),
    );

    await calm(r);
    const retried = RoleGrantSchema.parse((await session.post(`/api/servers/${demo.guildId}/role-grants/${grant.id}/retry`).expect(200)).body);
    assert.equal(retried.status, 'done');
    assert.ok(rolesOf(r, userId).includes(demo.roles.member), 'the role given');
    const diagnosticsAfter = DiagnosticsSchema.parse((await session.get(`/api/servers/${demo.guildId}/diagnostics?feature=autoRole`).expect(200)).body);
    assert.equal(diagnosticsAfter.items.filter((item) => item.subject?.startsWith('roleGrants:')).length, 0);
  });

  test('auto-assign switched off while the grant waits: the retry drops it', async () => {
    const { demo } = r.sandbox.world;
    await storm(r);
    const userId = await joiner(r, 'unwanted_joiner');
    await queued(r, userId);
    await calm(r);
    await (await r.signIn(demo.adminUserId)).put(`/api/servers/${demo.guildId}/settings`, { autoRoleEnabled: false }).expect(200);
    r.clock.advance(ROLE_GRANT_RETRY_DELAYS_MS[0] ?? 0);
    const [row] = await waitFor(
      async () => {
        const rows = await rowsOf(r, userId);
        return rows[0]?.status === 'dropped' ? rows : null;
      },
      10_000,
      'the grant dropped',
    );
    assert.equal(row?.lastError, 'Auto-assign is off now, or gives another role.');
    assert.ok(!rolesOf(r, userId).includes(demo.roles.member));
    await (await r.signIn(demo.adminUserId)).put(`/api/servers/${demo.guildId}/settings`, { autoRoleEnabled: true }).expect(200);
  });
});

for (const backend of storeBackends()) {
  describe(`two processes on one ${backend.name} database`, () => {
    test('both meet a storm on the same grant: it is queued once; both retriers find it due: one of them tries it', async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url } : {});
      try {
        const first = await r.start();
        const { demo } = r.sandbox.world;
        const userId = await joiner(r, 'shared_joiner', [first]);
        // Saved before the second process starts: on SQLite a process reads settings it did not write only when it starts.
        const saved = await (
          await r.signIn(demo.adminUserId)
        ).put(`/api/servers/${demo.guildId}/settings`, { autoRoleEnabled: true, memberRoleId: demo.roles.member });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
        const products = [first, await r.start()];
        // Each process's retrier is stopped, so the test says when they run.
        for (const product of products) await roleGrantsFeature.stop?.(product.services);
        await storm(r);
        const request = { roleId: demo.roles.member, action: 'add', source: 'memberRole', reason: 'Auto-assign member role' } as const;
        const changes = await Promise.all(
          products.map(async (product) => {
            const member = await product.client.guilds.cache.get(demo.guildId)?.members.fetch(userId);
            assert.ok(member);
            return changeRole(product.services, member, request);
          }),
        );
        assert.deepEqual(
          changes.map((change) => change.status),
          ['pending', 'pending'],
        );
        assert.equal(new Set(changes.map((change) => (change.status === 'pending' ? change.grantId : 0))).size, 1, 'one grant between them');
        assert.equal((await rowsOf(r, userId)).length, 1);

        await calm(r);
        r.clock.advance(ROLE_GRANT_RETRY_DELAYS_MS[0] ?? 0);
        const tried = await Promise.all(products.map((product) => retryDueGrants(product.services)));
        assert.deepEqual([...tried].sort(), [0, 1], 'claimed by one process');
        assert.ok(rolesOf(r, userId).includes(demo.roles.member));
        assert.deepEqual(
          (await rowsOf(r, userId)).map((row) => [row.status, row.attempts, row.claimedUntil]),
          [['done', 2, null]],
        );
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  });
}
