// Resilience of REST (issue 13), moderation: Discord answering 429 and 5xx to the DM, the timeout,
// the kick and the ban (welcome and role actions: rest-storms.test.ts). discord.js waits out a 429
// and retries a 5xx up to `retries` times (3, its default; src/bot/client.ts keeps it): with fewer
// faults each action is done once with one case; with a storm it is refused in words that name
// Discord and is never half-done: no case without the action, no member told of an action that
// did not happen.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { ModerationCaseSchema } from '../../src/shared/moderation';
import { storeBackends } from '../helpers/store';
import { armFault, DISCORD_DOWN, RETRIES, ROUTES, STORM, useProductOn } from './kit';
import { buildMember } from '../factories';

for (const backend of storeBackends()) {
  describe(`moderation under REST storms on ${backend.name}`, () => {
    const h = useProductOn(backend, new ManualClock(Date.UTC(2026, 10, 6, 10)));
    const url = (path: string) => `/api/servers/${h().guildId}${path}`;
    const admin = () => h().signIn(h().demo.adminUserId);
    const fault = (route: string, status: 429 | 500 | 502 | 503, count: number) => armFault(h(), route, status, count);

    before(async () => {
      const saved = await (await admin()).put(url('/settings'), { logChannelId: h().demo.channels.modLog });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    });

    describe('moderation', () => {
      const casesOf = (userId: string) =>
        h().product.store.models.ModerationLog.findAll({ where: { guildId: h().guildId, targetId: userId }, order: [['caseNumber', 'ASC']] });
      const act = async (body: Record<string, string>) => (await admin()).post(url('/moderation'), body);

      test('a few 429s and 5xx on the DM, the timeout, the kick and the ban: each action done once, one case each, numbered on', async () => {
        const target = await buildMember(h());
        const other = await buildMember(h());
        const numbers: number[] = [];

        await fault(ROUTES.dmChannel, 503, RETRIES);
        await fault(ROUTES.patchMember, 429, 1);
        await fault(ROUTES.patchMember, 500, RETRIES - 1);
        const timedOut = await act({ action: 'timeout', targetId: target.userId, reason: 'storm timeout', duration: '1h' });
        assert.equal(timedOut.status, 200, JSON.stringify(timedOut.body));
        numbers.push(ModerationCaseSchema.parse(timedOut.body).caseNumber);
        assert.equal(ModerationCaseSchema.parse(timedOut.body).dmDelivered, true);
        const until = h().world.requireGuild(h().guildId).members.get(target.userId)?.communicationDisabledUntil;
        assert.ok(until && Date.parse(until) > h().product.services.clock.ms(), 'timed out in Discord (on the product clock, which the sandbox shares)');

        await fault(ROUTES.kick, 502, RETRIES);
        const kicked = await act({ action: 'kick', targetId: other.userId, reason: 'storm kick' });
        assert.equal(kicked.status, 200, JSON.stringify(kicked.body));
        numbers.push(ModerationCaseSchema.parse(kicked.body).caseNumber);
        assert.equal(h().world.requireGuild(h().guildId).members.has(other.userId), false, 'kicked in Discord');

        await fault(ROUTES.ban, 429, 1);
        await fault(ROUTES.ban, 503, RETRIES);
        const banned = await act({ action: 'ban', targetId: target.userId, reason: 'storm ban' });
        assert.equal(banned.status, 200, JSON.stringify(banned.body));
        numbers.push(ModerationCaseSchema.parse(banned.body).caseNumber);
        assert.ok(h().world.requireGuild(h().guildId).bans.has(target.userId), 'banned in Discord');

        assert.deepEqual(numbers, [numbers[0]!, numbers[0]! + 1, numbers[0]! + 2], 'consecutive case numbers');
        assert.deepEqual(
          (await casesOf(target.userId)).map((row) => row.action),
          ['timeout', 'ban'],
        );
        assert.deepEqual(
          (await casesOf(other.userId)).map((row) => row.action),
          ['kick'],
        );
      });

      test(
        'a storm on the ban, the kick or the timeout: refused in words naming Discord, no case, nothing done in Discord, the member not left ' +
          'believing it was',
        async () => {
          const target = await buildMember(h());
          for (const [route, request] of [
            [ROUTES.ban, { action: 'ban', targetId: target.userId, reason: 'stormy ban' }],
            [ROUTES.kick, { action: 'kick', targetId: target.userId, reason: 'stormy kick' }],
            [ROUTES.patchMember, { action: 'timeout', targetId: target.userId, reason: 'stormy timeout', duration: '1h' }],
          ] as const) {
            await fault(route, 500, STORM);
            const answer = await act(request);
            await h().control('POST', '/faults', { clear: true });
            assert.equal(answer.status, 422, `${request.action}: ${JSON.stringify(answer.body)}`);
            assert.equal(answer.body.error, 'discord_refused');
            assert.match(answer.body.message, DISCORD_DOWN);
          }
          assert.deepEqual(await casesOf(target.userId), [], 'no case');
          const guild = h().world.requireGuild(h().guildId);
          assert.equal(guild.bans.has(target.userId), false, 'not banned');
          assert.equal(guild.members.has(target.userId), true, 'not kicked');
          assert.equal(guild.members.get(target.userId)?.communicationDisabledUntil ?? null, null, 'not timed out');
          // Told of nothing that did not happen: a kick or ban is announced first (it could not arrive
          // after), so its failure is taken back; a timeout is only told once done.
          const titles = (h().world.dms.ofUser(target.userId)?.messages ?? []).map((message) => message.embeds?.[0]?.title ?? message.content);
          assert.deepEqual(titles, [
            'You were banned from Sandbox Community',
            'The ban from Sandbox Community did not go through',
            'You were kicked from Sandbox Community',
            'The kick from Sandbox Community did not go through',
          ]);
        },
      );

      test('a storm while the bot looks up a member it has not cached, or a ban before an unban: refused in words naming Discord, no case', async () => {
        // Without GUILD_PRESENCES the bot is told of few members at start; the others are fetched.
        const cache = h().product.client.guilds.cache.get(h().guildId)?.members.cache;
        const uncached = [...h().world.requireGuild(h().guildId).members.keys()].find(
          (id) => !cache?.has(id) && !h().world.users.get(id)?.bot && id !== h().world.requireGuild(h().guildId).ownerId,
        );
        assert.ok(uncached, 'a member the bot has not cached');
        await fault('GET /guilds/:id/members/:id', 502, STORM);
        const answer = await act({ action: 'warn', targetId: uncached, reason: 'stormy lookup' });
        await h().control('POST', '/faults', { clear: true });
        assert.equal(answer.status, 422, JSON.stringify(answer.body));
        assert.match(answer.body.message, DISCORD_DOWN);
        assert.deepEqual(await casesOf(uncached), [], 'no case');

        // Before an unban the bot asks Discord whether the user is banned: no answer is not "not banned".
        const banned = await buildMember(h());
        const ban = await h().control('POST', `/guilds/${h().guildId}/moderation`, {
          actorId: h().demo.adminUserId,
          action: 'ban',
          targetId: banned.userId,
          reason: 'by hand',
        });
        assert.equal(ban.status, 204, JSON.stringify(ban.body));
        await fault('GET /guilds/:id/bans/:id', 503, STORM);
        const unban = await act({ action: 'unban', targetId: banned.userId, reason: 'stormy unban' });
        await h().control('POST', '/faults', { clear: true });
        assert.equal(unban.status, 422, JSON.stringify(unban.body));
        assert.match(unban.body.message, DISCORD_DOWN);
        assert.ok(h().world.requireGuild(h().guildId).bans.has(banned.userId), 'still banned');
        assert.ok(!(await casesOf(banned.userId)).some((row) => row.action === 'unban'), 'no unban case');
      });

      test('a storm on the DM alone: the action is done and recorded once, the case saying the member was not told', async () => {
        const target = await buildMember(h());
        await fault(ROUTES.dmChannel, 500, STORM);
        const answer = await act({ action: 'warn', targetId: target.userId, reason: 'stormy warning' });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(ModerationCaseSchema.parse(answer.body).dmDelivered, false);
        assert.equal((await casesOf(target.userId)).length, 1);
      });
    });
  });
}
