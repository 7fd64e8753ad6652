// Timeouts longer than Discord's 28 days, through the sandbox with the clock advanced: a 90-day
// timeout from the dashboard is applied for 28 days, renewed by the bot before Discord's runs out
// (also after a restart that let it run out), and ends at the case's expiry; a moderator lifting it
// in Discord stops the renewal; a member who rejoins gets it back. The bot's renewals are not cases.
// Two processes on one database (SQLite file, and PostgreSQL when TEST_DATABASE_URL is set) renew once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuditLogEvent } from 'discord.js';
import { moderationState } from '../../src/features/moderation/state';
import { ModerationCaseSchema } from '../../src/shared/moderation';
import { restartable, type Restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';

const DAY = 86_400_000;

describe('long timeouts', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    await r.start();
    const session = await r.signIn(r.sandbox.world.demo.adminUserId);
    const saved = await session.put(`/api/servers/${r.sandbox.world.demo.guildId}/settings`, { logChannelId: r.sandbox.world.demo.channels.modLog });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });
  after(() => r.close());

  const guildId = () => r.sandbox.world.demo.guildId;
  /** The member's communication_disabled_until in the sandbox, in ms (null when never or no longer set). */
  const discordUntil = (userId: string) => {
    const until = r.sandbox.world.guilds.get(guildId())?.members.get(userId)?.communicationDisabledUntil;
    return until ? Date.parse(until) : null;
  };
  const casesOf = (userId: string) =>
    r.product().store.models.ModerationLog.findAll({ where: { guildId: guildId(), targetId: userId }, order: [['caseNumber', 'ASC']] });
  /** One pass of the renewal task, waited for (the timer runs it every second too). */
  const sweep = () => moderationState.of(r.product().services).longTimeouts.run();
  /** A new member the bot has seen, timed out from the dashboard for `duration`. */
  async function timedOut(username: string, duration: string) {
    const { world } = r.sandbox;
    const target = world.addMember(guildId(), { username });
    await waitFor(() => r.product().client.guilds.cache.get(guildId())?.members.cache.has(target.userId), 5000, 'the member to reach the bot');
    const session = await r.signIn(world.demo.adminUserId);
    const response = await session.post(`/api/servers/${guildId()}/moderation`, {
      action: 'timeout',
      targetId: target.userId,
      reason: 'Long cool off',
      duration,
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return { userId: target.userId, view: ModerationCaseSchema.parse(response.body) };
  }

  test('a 90-day timeout is renewed before Discord’s 28 days run out, caught up after a restart, and ends at its expiry', async () => {
    const start = r.clock.ms();
    const { userId, view } = await timedOut('long_muted', '90d');
    assert.equal(view.duration, '90d');
    assert.equal(Date.parse(view.expiresAt ?? ''), start + 90 * DAY);
    assert.equal(discordUntil(userId), start + 28 * DAY, 'Discord holds 28 days');
    // The member and the log are told the full length.
    const dm = r.sandbox.world.dms.ofUser(userId)?.messages.at(-1);
    assert.match(dm?.embeds[0]?.title ?? '', /timed out in .* for 90 days$/);
    const logPost = await waitFor(
      () => r.sandbox.world.messages.list(r.sandbox.world.demo.channels.modLog).find((m) => m.embeds[0]?.title === `Case #${view.caseNumber} · Timeout`),
      5000,
      'the case in the log channel',
    );
    assert.ok(logPost.embeds[0]?.fields?.some((field) => field.name === 'Duration' && field.value === '90 days'));

    // More than a day of Discord's timeout left: nothing to do.
    r.clock.advance(26 * DAY);
    await sweep();
    assert.equal(discordUntil(userId), start + 28 * DAY);
    // Less than a day left: renewed for 28 more days.
    r.clock.advance(DAY + DAY / 2);
    await waitFor(() => discordUntil(userId) === start + 27.5 * DAY + 28 * DAY, 5000, 'the first renewal');

    // The bot is down while Discord's timeout runs out; its first pass after the start re-applies it.
    await r.stop();
    r.clock.advance(29 * DAY); // day 56.5: Discord's ran out at 55.5
    assert.ok((discordUntil(userId) ?? 0) < r.clock.ms());
    await r.start();
    await waitFor(() => discordUntil(userId) === start + 56.5 * DAY + 28 * DAY, 5000, 'the timeout re-applied after the restart');

    // The last renewal ends at the case's expiry, not 28 days on.
    r.clock.advance(28 * DAY - DAY / 2); // day 84, half a day left
    await waitFor(() => discordUntil(userId) === start + 90 * DAY, 5000, 'the last renewal, to the expiry');
    r.clock.advance(6 * DAY + 1000);
    await sweep();
    assert.equal(discordUntil(userId), start + 90 * DAY, 'no renewal past the expiry');

    // The renewals were the bot's: one case, no native timeout cases.
    const rows = await casesOf(userId);
    assert.deepEqual(
      rows.map((row) => [row.action, row.source]),
      [['timeout', 'dashboard']],
    );
    assert.equal(rows[0]?.liftedAt, null);
  });

  test('a moderator lifting the timeout in Discord ends the renewal', async () => {
    const { world } = r.sandbox;
    const { userId } = await timedOut('lifted_in_discord', '30d');
    world.updateMember(guildId(), userId, { communicationDisabledUntil: null }, { actorId: world.demo.adminUserId, reason: 'Served enough' });
    const rows = await waitFor(
      async () => {
        const found = await casesOf(userId);
        return found.length === 2 && found[0]?.liftedAt ? found : null;
      },
      5000,
      'the untimeout case and the timeout lifted',
    );
    assert.deepEqual(
      rows.map((row) => [row.action, row.source]),
      [
        ['timeout', 'dashboard'],
        ['untimeout', 'discord'],
      ],
    );
    r.clock.advance(27.5 * DAY);
    await sweep();
    assert.equal(discordUntil(userId), null, 'not renewed');
  });

  test('lifting it through the bot (dashboard or /untimeout) ends the renewal; lifting one not timed out is refused, with no case', async () => {
    const { world } = r.sandbox;
    const session = await r.signIn(world.demo.adminUserId);
    const { userId, view } = await timedOut('lifted_by_bot', '90d');
    const lifted = await session.post(`/api/servers/${guildId()}/moderation`, { action: 'untimeout', targetId: userId, reason: 'Apologised' });
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    assert.equal(ModerationCaseSchema.parse(lifted.body).action, 'untimeout');
    assert.equal(discordUntil(userId), null, 'lifted in Discord');
    const again = await session.post(`/api/servers/${guildId()}/moderation`, { action: 'untimeout', targetId: userId, reason: 'Twice' });
    assert.equal(again.status, 400);
    assert.equal(again.body.message, 'That member is not timed out.');

    const other = await timedOut('lifted_by_command', '1y');
    const reply = await fetch(`${r.sandbox.url}/_sandbox/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        guildId: guildId(),
        channelId: world.demo.channels.general,
        userId: world.demo.adminUserId,
        name: 'untimeout',
        options: { member: other.userId, reason: 'Served enough' },
      }),
    });
    assert.equal(reply.status, 200);
    assert.match(((await reply.json()) as { content: string }).content, /^Case #\d+ · timeout lifted · lifted_by_command · by /);
    assert.equal(discordUntil(other.userId), null);

    r.clock.advance(27.5 * DAY);
    await sweep();
    for (const id of [userId, other.userId]) {
      assert.equal(discordUntil(id), null, 'not renewed');
      const rows = await casesOf(id);
      // The bot's own lift is not recorded a second time from the audit log.
      assert.deepEqual(
        rows.map((row) => [row.action, Boolean(row.liftedAt)]),
        [
          ['timeout', true],
          ['untimeout', false],
        ],
      );
    }
    assert.equal((await casesOf(userId))[0]?.caseNumber, view.caseNumber);
  });

  test('a renewal Discord refuses (the member now outranks the bot) is retried an hour later, and goes through once allowed', async () => {
    const { world } = r.sandbox;
    const { userId, view } = await timedOut('promoted', '90d');
    const until = discordUntil(userId) ?? 0;
    world.setMemberRoles(guildId(), userId, [world.demo.roles.aboveBot]);
    await waitFor(
      () => r.product().client.guilds.cache.get(guildId())?.members.cache.get(userId)?.roles.cache.has(world.demo.roles.aboveBot),
      5000,
      'the role',
    );
    r.clock.advance(27.5 * DAY);
    await sweep();
    assert.equal(discordUntil(userId), until, 'refused: not renewed');
    const row = await r.product().store.models.ModerationLog.findOne({ where: { guildId: guildId(), caseNumber: view.caseNumber } });
    assert.equal(row?.claimedUntil?.getTime(), r.clock.ms() + 3_600_000, 'retried in an hour');
    world.setMemberRoles(guildId(), userId, []);
    r.clock.advance(3_600_000 + 1000);
    await waitFor(() => discordUntil(userId) === r.clock.ms() + 28 * DAY, 5000, 'the renewal once allowed');
  });

  test('a member who leaves and rejoins during a long timeout has it applied again', async () => {
    const { world } = r.sandbox;
    const { userId } = await timedOut('rejoiner', '1y');
    world.removeMember(guildId(), userId);
    await waitFor(() => !r.product().client.guilds.cache.get(guildId())?.members.cache.has(userId), 5000, 'the member to leave');
    r.clock.advance(3 * DAY);
    world.addMember(guildId(), { id: userId, username: 'rejoiner' });
    assert.equal(discordUntil(userId), null, 'the sandbox forgets a timeout on leaving');
    await waitFor(() => discordUntil(userId) === r.clock.ms() + 28 * DAY, 5000, 'the timeout applied on join');
    assert.equal((await casesOf(userId)).length, 1);
  });
});

describe('long timeouts with two processes', () => {
  for (const backend of storeBackends()) {
    test(`two processes on one ${backend.name} database renew each timeout once`, async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url } : {});
      try {
        const first = await r.start();
        const second = await r.start();
        const { world } = r.sandbox;
        const guildId = world.demo.guildId;
        const session = await r.signIn(world.demo.adminUserId);
        const start = r.clock.ms();
        const targets: string[] = [];
        for (const name of ['twice_a', 'twice_b', 'twice_c']) {
          const target = world.addMember(guildId, { username: name });
          for (const product of [first, second])
            await waitFor(() => product.client.guilds.cache.get(guildId)?.members.cache.has(target.userId), 5000, 'the member to reach both bots');
          const response = await session.post(`/api/servers/${guildId}/moderation`, {
            action: 'timeout',
            targetId: target.userId,
            reason: 'x',
            duration: '90d',
          });
          assert.equal(response.status, 200, JSON.stringify(response.body));
          targets.push(target.userId);
        }
        r.clock.advance(27.5 * DAY);
        // Both passes at once (their timers run too).
        await Promise.all([first, second].map((product) => moderationState.of(product.services).longTimeouts.run()));
        const until = (userId: string) => Date.parse(world.guilds.get(guildId)?.members.get(userId)?.communicationDisabledUntil ?? '');
        await waitFor(() => targets.every((userId) => until(userId) === start + 55.5 * DAY), 5000, 'the renewals');
        for (const product of [first, second]) await moderationState.of(product.services).longTimeouts.run();
        const timeoutsSet = (userId: string) =>
          world
            .requireGuild(guildId)
            .auditLog.filter(
              (entry) =>
                entry.action_type === AuditLogEvent.MemberUpdate &&
                entry.target_id === userId &&
                entry.changes?.some((change) => change.key === 'communication_disabled_until'),
            ).length;
        assert.deepEqual(targets.map(timeoutsSet), [2, 2, 2], 'the timeout and one renewal each');
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  }
});
