// Resilience of REST (issue 13): Discord answering 429 and 5xx to the calls of the welcome and role
// actions (moderation: moderation-storms.test.ts). discord.js waits out a 429 and retries a 5xx up
// to `retries` times (3, its default; src/bot/client.ts keeps it): with fewer faults each action
// completes exactly once (one message, one role, one charge); with a storm a welcome or a purchase
// fails, said in words that name Discord, and is never half-done (no coins without the role); a
// role given on a member's behalf (member role, reaction role) waits in the retry queue instead and
// is given once Discord is back (test/resilience/role-grant-retries.test.ts: restarts, give-up).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { QueryTypes } from 'sequelize';
import { ManualClock } from '../../src/core/clock';
import { ReactionRoleSchema } from '../../src/shared/reaction-roles';
import { RoleGrantListSchema } from '../../src/shared/role-grants';
import { ShopItemSchema } from '../../src/shared/economy';
import { storeBackends } from '../helpers/store';
import { armFault, DISCORD_DOWN, RETRIES, ROUTES, saveCommunitySettings, STORM, useProductOn } from './kit';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';
import { assertLedgerWhole } from '../economy/ledger';

/** What a queued grant says of its last try: no "try again", since the bot tries again itself. */
const DISCORD_SILENT = /^Discord did not answer \(50[023] .*\)\.$/;

for (const backend of storeBackends()) {
  describe(`REST storms on ${backend.name}`, () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 6, 10));
    const h = useProductOn(backend, clock);
    const url = (path: string) => `/api/servers/${h().guildId}${path}`;
    const admin = () => h().signIn(h().demo.adminUserId);
    const fault = (route: string, status: 429 | 500 | 502 | 503, count: number) => armFault(h(), route, status, count);
    const roleIdsOf = (userId: string) => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds ?? [];
    const welcomesOf = async (userId: string) =>
      (await h().messages(h().demo.channels.welcome)).filter((message) => message.bot && message.content.includes(`<@${userId}>`));
    /** The grants waiting or failed, as the dashboard reads them. */
    const grants = async () => RoleGrantListSchema.parse((await (await admin()).get(url('/role-grants')).expect(200)).body);
    /** A member who joins now, as Discord tells the bot. */
    const join = (username: string) => h().world.addMember(h().guildId, { username: `${username}_${Date.now()}` }).userId;

    before(() => saveCommunitySettings(h()));

    describe('welcome', () => {
      test('429s and a few 5xx on the post and the role: one welcome, the role given, logged as sent', async () => {
        await fault(ROUTES.post, 429, 1);
        await fault(ROUTES.post, 503, RETRIES - 1);
        await fault(ROUTES.addRole, 502, RETRIES);
        const userId = join('storm_welcome');
        await waitFor(async () => (await welcomesOf(userId)).length > 0, 10_000, 'the welcome');
        await waitFor(() => roleIdsOf(userId).includes(h().demo.roles.member), 10_000, 'the member role');
        // The log row is settled after the post answers: wait for it to leave 'pending'.
        const statuses = async () => (await h().product.store.models.WelcomeLog.findAll({ where: { guildId: h().guildId, userId } })).map((row) => row.status);
        await waitFor(async () => !(await statuses()).includes('pending') || null, 10_000, 'the welcome log to be settled');
        assert.deepEqual(await statuses(), ['sent']);
        assert.equal((await welcomesOf(userId)).length, 1, 'one welcome message');
        assert.equal(roleIdsOf(userId).filter((id) => id === h().demo.roles.member).length, 1);
      });

      test(
        'a 5xx storm on the post and the role: no welcome, the role waits for a retry, the welcome log says Discord did not answer; once Discord ' +
          'is back the next join is welcomed',
        async () => {
          await fault(ROUTES.post, 500, STORM);
          await fault(ROUTES.addRole, 503, STORM);
          const userId = join('storm_welcome_down');
          const row = await waitFor(
            async () => {
              const found = await h().product.store.models.WelcomeLog.findOne({ where: { guildId: h().guildId, userId } });
              return found && found.status !== 'pending' ? found : null;
            },
            10_000,
            'the welcome attempt',
          );
          assert.equal(row.status, 'failed');
          assert.match(row.error ?? '', DISCORD_DOWN);
          assert.equal(row.messageId, null);
          assert.deepEqual(await welcomesOf(userId), []);
          assert.ok(!roleIdsOf(userId).includes(h().demo.roles.member), 'no role given');
          assert.equal((await grants()).items.find((item) => item.userId === userId)?.status, 'pending', 'the role waits for a retry');
          const recent = await (await admin()).get(url('/welcome/recent')).expect(200);
          const entry = (recent.body as { userId: string; status: string; error: string | null }[]).find((candidate) => candidate.userId === userId);
          assert.equal(entry?.status, 'failed');
          assert.match(entry?.error ?? '', DISCORD_DOWN);
          // The log channel cannot be posted to during the storm either; once Discord is back the next
          // join is welcomed and given the role as usual.
          await h().control('POST', '/faults', { clear: true });
          const next = join('after_the_storm');
          await waitFor(async () => (await welcomesOf(next)).length === 1, 10_000, 'the next welcome');
          await waitFor(() => roleIdsOf(next).includes(h().demo.roles.member), 10_000, 'the next member role');
        },
      );

      test(
        'a storm on the role alone: the welcome is posted and the member role waits for Discord (no failure notice); once Discord is back the ' +
          'retry gives it once',
        async () => {
          await fault(ROUTES.addRole, 500, STORM);
          const userId = join('storm_role_only');
          const grant = await waitFor(async () => (await grants()).items.find((item) => item.userId === userId), 10_000, 'the queued grant');
          assert.equal(grant.status, 'pending');
          assert.equal(grant.source, 'memberRole');
          assert.equal(grant.roleId, h().demo.roles.member);
          assert.match(grant.lastError ?? '', DISCORD_SILENT);
          assert.equal(grant.nextAttemptAt, new Date(clock.ms() + 60_000).toISOString(), 'the first retry a minute later');
          await waitFor(async () => (await welcomesOf(userId)).length === 1, 10_000, 'the welcome');
          assert.ok(!roleIdsOf(userId).includes(h().demo.roles.member), 'no role yet');

          await h().control('POST', '/faults', { clear: true });
          clock.advance(60_000);
          await waitFor(() => roleIdsOf(userId).includes(h().demo.roles.member), 10_000, 'the member role from the retry');
          await waitFor(async () => !(await grants()).items.some((item) => item.id === grant.id), 5000, 'the grant to leave the list');
          const row = await h().product.store.models.RoleGrantRetry.findByPk(grant.id);
          assert.equal(row?.status, 'done');
          assert.equal(row?.attempts, 2, 'the first try and one retry');
          const notices = (await h().messages(h().demo.channels.modLog)).filter((message) =>
            message.embeds.some((embed) => embed.title === 'Auto-assign failed' && embed.description?.includes('storm_role_only')),
          );
          assert.deepEqual(notices, [], 'a grant waiting for Discord is no failure');
        },
      );
    });

    describe('roles', () => {
      const buy = (userId: string, item: number) => h().slash(userId, 'buy', { item: String(item) });
      const purchasesOf = (userId: string) =>
        h().product.store.sequelize.query<{ amount: number }>(
          `SELECT "amount" FROM transactions WHERE "guildId" = ? AND "userId" = ? AND "type" = 'purchase'`,
          {
            type: QueryTypes.SELECT,
            replacements: [h().guildId, userId],
          },
        );

      test('the shop: a few 429s and 5xx on the role charge once and give the role once; a storm charges nothing and says so', async () => {
        const session = await admin();
        const role = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name: 'Storm Patron' });
        await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(role.body.id), 5000, 'the role to reach the bot');
        const item = ShopItemSchema.parse(
          (await session.post(url('/shop'), { name: 'Storm Patron', price: 40, type: 'role', roleId: role.body.id }).expect(200)).body,
        );
        const buyer = await buildMember(h());
        await session.post(url('/economy/give'), { userId: buyer.userId, amount: 100 }).expect(200);

        await fault(ROUTES.addRole, 500, STORM);
        const refused = await buy(buyer.userId, item.id);
        assert.equal(refused.body.ephemeral, true);
        assert.match(refused.body.content, DISCORD_DOWN);
        assert.match(refused.body.content, /Nothing was charged/);
        await h().control('POST', '/faults', { clear: true });
        assert.equal(
          (await h().product.store.models.UserCurrency.findOne({ where: { guildId: h().guildId, userId: buyer.userId } }))?.balance,
          100,
          'nothing charged',
        );
        assert.deepEqual(await purchasesOf(buyer.userId), [], 'no purchase in the ledger');
        assert.equal(await h().product.store.models.UserInventory.count({ where: { guildId: h().guildId, userId: buyer.userId } }), 0);
        assert.equal((await h().product.store.models.ShopItem.findByPk(item.id))?.purchaseCount, 0);
        assert.ok(!roleIdsOf(buyer.userId).includes(role.body.id), 'no role');

        await fault(ROUTES.addRole, 429, 1);
        await fault(ROUTES.addRole, 502, RETRIES);
        const bought = await buy(buyer.userId, item.id);
        assert.match(bought.body.content, /You bought \*\*Storm Patron\*\* for 40 coins/, JSON.stringify(bought.body));
        assert.equal(
          (await h().product.store.models.UserCurrency.findOne({ where: { guildId: h().guildId, userId: buyer.userId } }))?.balance,
          60,
          'charged once',
        );
        assert.deepEqual(
          (await purchasesOf(buyer.userId)).map((row) => Number(row.amount)),
          [-40],
        );
        assert.equal((await h().product.store.models.UserInventory.findOne({ where: { guildId: h().guildId, userId: buyer.userId } }))?.quantity, 1);
        assert.equal((await h().product.store.models.ShopItem.findByPk(item.id))?.purchaseCount, 1);
        assert.ok(roleIdsOf(buyer.userId).includes(role.body.id), 'the role given');
        await assertLedgerWhole(h().product.store, h().guildId);
      });

      test('reaction roles: a few faults give and take the role once each; a storm queues the grant, and the retry gives it once Discord is back', async () => {
        const session = await admin();
        const role = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name: 'Storm Colour' });
        await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(role.body.id), 5000, 'the role to reach the bot');
        const channelId = h().demo.channels.general;
        const messageId = (
          await h().control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId: h().demo.adminUserId, content: 'Pick a colour' })
        ).body.id;
        const entry = ReactionRoleSchema.parse(
          (await session.post(url('/reaction-roles'), { messageId, channelId, emoji: '🌩️', roleId: role.body.id }).expect(200)).body,
        );
        const events = () =>
          h().product.store.models.ReactionRoleEvent.findAll({ where: { guildId: h().guildId, reactionRoleId: entry.id }, order: [['id', 'ASC']] });
        const react = (userId: string, method: 'PUT' | 'DELETE') =>
          h().control(method, `/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent('🌩️')}/${userId}`);

        const stormed = await buildMember(h());
        await fault(ROUTES.addRole, 503, STORM);
        await react(stormed.userId, 'PUT');
        const grant = await waitFor(async () => (await grants()).items.find((item) => item.userId === stormed.userId), 10_000, 'the queued grant');
        assert.deepEqual([grant.status, grant.source, grant.action, grant.roleId], ['pending', 'reactionRole', 'add', role.body.id]);
        assert.equal(grant.purpose, 'Reaction role 🌩️ in #general');
        assert.match(grant.lastError ?? '', DISCORD_SILENT);
        assert.deepEqual(await events(), [], 'a queued grant is not recorded as failed');
        assert.ok(!roleIdsOf(stormed.userId).includes(role.body.id), 'no role yet');
        await h().control('POST', '/faults', { clear: true });
        clock.advance(60_000);
        await waitFor(() => roleIdsOf(stormed.userId).includes(role.body.id), 10_000, 'the role from the retry');
        await waitFor(async () => (await events()).length === 1, 5000, 'the retry recorded');
        assert.deepEqual(
          (await events()).map((event) => [event.userId, event.action, event.outcome]),
          [[stormed.userId, 'add', 'ok']],
          'given once',
        );
        assert.equal((await h().product.store.models.RoleGrantRetry.findByPk(grant.id))?.status, 'done');

        const member = await buildMember(h());
        await fault(ROUTES.addRole, 429, 1);
        await fault(ROUTES.addRole, 500, RETRIES);
        await react(member.userId, 'PUT');
        await waitFor(() => roleIdsOf(member.userId).includes(role.body.id), 10_000, 'the role');
        await fault(ROUTES.removeRole, 502, RETRIES);
        await react(member.userId, 'DELETE');
        await waitFor(() => !roleIdsOf(member.userId).includes(role.body.id), 10_000, 'the role taken');
        await waitFor(async () => (await events()).filter((event) => event.userId === member.userId).length >= 2, 5000, 'both recorded');
        assert.deepEqual(
          (await events()).filter((event) => event.userId === member.userId).map((event) => [event.action, event.outcome]),
          [
            ['add', 'ok'],
            ['remove', 'ok'],
          ],
          'one add and one remove, each done once',
        );
      });
    });
  });
}
