// Announcements through the sandbox: Send Now posts the priority's embed and pings only the chosen
// role; a refusal is answered in words and recorded; scheduled ones are sent at their time by the
// scheduler (the clock advanced, not waited for), editable and cancellable until then, sent late
// after a short outage and marked missed after a long one, and sent once by two processes on one
// database (SQLite file, and PostgreSQL when TEST_DATABASE_URL is set).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { AnnouncementPageSchema, AnnouncementSchema, PRIORITY_STYLE } from '../../src/shared/announcements';
import { sendDueAnnouncements } from '../../src/features/announcements/service';
import { useHarness } from '../helpers/harness';
import { restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';

const clock = new ManualClock(Date.UTC(2026, 10, 4, 18));
const h = useHarness({}, { clock });

describe('announcements', () => {
  const base = () => `/api/servers/${h().guildId}/announcements`;
  const admin = () => h().signIn(h().demo.adminUserId);
  const inMinutes = (minutes: number) => new Date(clock.ms() + minutes * 60_000).toISOString().replace('Z', '+00:00');
  const list = async () => AnnouncementPageSchema.parse((await (await admin()).get(`${base()}?pageSize=50`).expect(200)).body);

  test("Send Now posts the embed with the priority's colour and banner, pinging nobody", async () => {
    const session = await admin();
    const posted = h().waitForMessage(h().demo.channels.announcements, (message) => message.embeds[0]?.title === 'Server maintenance');
    const sent = AnnouncementSchema.parse(
      (
        await session
          .post(base(), { title: 'Server maintenance', message: 'Tonight at 10. @everyone', channelId: h().demo.channels.announcements, priority: 'urgent' })
          .expect(200)
      ).body,
    );
    const message = await posted;
    assert.equal(sent.status, 'sent');
    assert.equal(message.embeds[0]?.color, PRIORITY_STYLE.urgent.color);
    assert.equal(message.embeds[0]?.author?.name, '⚠️ Urgent');
    assert.deepEqual(message.pinged, { users: [], roles: [], everyone: false });
    assert.match(sent.messageUrl ?? '', new RegExp(`/channels/${h().guildId}/${h().demo.channels.announcements}/${message.id}$`));
  });

  test('a role to ping must be pingable; when it is, only that role is pinged', async () => {
    const session = await admin();
    const quiet = await session.post(base(), { title: 'Hi', message: 'Hello', channelId: h().demo.channels.general, mentionRoleId: h().demo.roles.member });
    assert.equal(quiet.status, 400);
    assert.match(quiet.body.fields.mentionRoleId, /@Member cannot be pinged by AwesomeBot\. Make it mentionable/);
    const role = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name: 'Events', mentionable: true });
    await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(role.body.id), 5000, 'the role to reach the bot');
    const posted = h().waitForMessage(h().demo.channels.general, (message) => message.embeds[0]?.title === 'Game night');
    await session.post(base(), { title: 'Game night', message: 'Friday', channelId: h().demo.channels.general, mentionRoleId: role.body.id }).expect(200);
    const message = await posted;
    assert.equal(message.content, `<@&${role.body.id}>`);
    assert.deepEqual(message.pinged, { users: [], roles: [role.body.id], everyone: false });
  });

  test('a channel the bot cannot post in: the reason in words, and a failed entry in the history', async () => {
    const session = await admin();
    const denied = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/channels`, {
      name: 'closed-news',
      overwrites: [{ id: h().demo.roles.bot, type: 'role', deny: ['EmbedLinks'] }],
    });
    await waitFor(() => h().product.client.channels.cache.has(denied.body.id), 5000, 'the channel to reach the bot');
    const refused = await session.post(base(), { title: 'Nope', message: 'x', channelId: denied.body.id });
    assert.equal(refused.status, 400);
    assert.match(refused.body.fields.channelId, /AwesomeBot cannot embed links in #closed-news/);

    // Discord failing at send time (the checks passed; 503 beyond discord.js's retries): 422 in words, recorded as failed.
    await h().control('POST', '/faults', { route: `POST /channels/${h().demo.channels.general}/messages`, status: 503, count: 10 });
    const unexpected = await session.post(base(), { title: 'Flaky', message: 'x', channelId: h().demo.channels.general });
    await h().control('POST', '/faults', { clear: true });
    assert.equal(unexpected.status, 422);
    assert.match(unexpected.body.message, /Discord did not answer \(503/);
    const failed = (await list()).entries.find((row) => row.title === 'Flaky');
    assert.equal(failed?.status, 'failed');
    assert.match(failed?.error ?? '', /Discord did not answer/);
  });

  test('a schedule must be ahead and carry its time zone', async () => {
    const session = await admin();
    const past = await session.post(base(), { title: 'Old', message: 'x', channelId: h().demo.channels.general, scheduleTime: inMinutes(-5) });
    assert.equal(past.status, 400);
    assert.match(past.body.fields.scheduleTime, /must be in the future/);
    const naive = await session.post(base(), { title: 'Naive', message: 'x', channelId: h().demo.channels.general, scheduleTime: '2026-11-04T20:00:00' });
    assert.equal(naive.status, 400);
    assert.match(naive.body.fields.scheduleTime, /time zone/);
  });

  test('scheduled: sent at its time when the clock gets there; editable and cancellable before, not after', async () => {
    const session = await admin();
    const created = AnnouncementSchema.parse(
      (
        await session
          .post(base(), { title: 'Tournament', message: 'Sign up!', channelId: h().demo.channels.general, scheduleTime: inMinutes(30), priority: 'high' })
          .expect(200)
      ).body,
    );
    assert.equal(created.status, 'scheduled');
    const edited = AnnouncementSchema.parse((await session.patch(`${base()}/${created.id}`, { title: 'Tournament (final)' }).expect(200)).body);
    assert.equal(edited.title, 'Tournament (final)');
    const doomed = AnnouncementSchema.parse(
      (await session.post(base(), { title: 'Doomed', message: 'x', channelId: h().demo.channels.general, scheduleTime: inMinutes(30) }).expect(200)).body,
    );
    assert.equal(AnnouncementSchema.parse((await session.post(`${base()}/${doomed.id}/cancel`).expect(200)).body).status, 'cancelled');
    assert.equal((await session.post(`${base()}/${doomed.id}/cancel`)).status, 409);

    // The barrier: a pass of the scheduler, run here at the clock's time, sends nothing.
    assert.equal(await sendDueAnnouncements(h().product.services), 0, 'nothing is due');
    assert.equal((await list()).entries.find((row) => row.id === created.id)?.status, 'scheduled', 'not before its time');
    clock.advance(31 * 60_000);
    const sent = await waitFor(async () => (await list()).entries.find((row) => row.id === created.id && row.status === 'sent'), 5000, 'the scheduled send');
    assert.equal(sent.late, false);
    const message = (await h().messages(h().demo.channels.general)).find((row) => row.embeds[0]?.title === 'Tournament (final)');
    assert.equal(message?.embeds[0]?.author?.name, 'High priority');
    assert.equal(
      (await h().messages(h().demo.channels.general)).filter((row) => row.embeds[0]?.title === 'Doomed').length,
      0,
      'the cancelled one never went out',
    );
    assert.equal((await session.patch(`${base()}/${created.id}`, { title: 'Too late' })).status, 409);
  });

  test('Recent Announcements pages newest first', async () => {
    const session = await admin();
    const page = AnnouncementPageSchema.parse((await session.get(`${base()}?page=1&pageSize=2`).expect(200)).body);
    assert.equal(page.entries.length, 2);
    assert.ok(page.total >= 5);
    const second = AnnouncementPageSchema.parse((await session.get(`${base()}?page=2&pageSize=2`).expect(200)).body);
    assert.ok((second.entries[0]?.id ?? 0) < (page.entries[1]?.id ?? 0));
    assert.equal((await session.get(`${base()}?pageSize=500`)).status, 400);
  });
});

describe('scheduled announcements across restarts', () => {
  test('one due during a short outage is sent late and marked so; one overdue by hours is marked missed', async () => {
    const r = await restartable();
    try {
      await r.start();
      const { demo } = r.sandbox.world;
      const session = await r.signIn(demo.adminUserId);
      const at = (minutes: number) => new Date(r.clock.ms() + minutes * 60_000).toISOString();
      const soon = AnnouncementSchema.parse(
        (
          await session
            .post(`/api/servers/${demo.guildId}/announcements`, { title: 'Soon', message: 'x', channelId: demo.channels.general, scheduleTime: at(10) })
            .expect(200)
        ).body,
      );
      const later = AnnouncementSchema.parse(
        (
          await session
            .post(`/api/servers/${demo.guildId}/announcements`, { title: 'Later', message: 'x', channelId: demo.channels.general, scheduleTime: at(20) })
            .expect(200)
        ).body,
      );
      await r.stop();
      r.clock.advance(25 * 60_000);
      await r.start();
      const rows = async () =>
        AnnouncementPageSchema.parse((await (await r.signIn(demo.adminUserId)).get(`/api/servers/${demo.guildId}/announcements`)).body).entries;
      await waitFor(async () => (await rows()).filter((row) => row.status === 'sent').length === 2, 5000, 'both sent after the restart');
      const sent = await rows();
      assert.equal(sent.find((row) => row.id === soon.id)?.late, true);
      assert.equal(sent.find((row) => row.id === later.id)?.late, true);

      const stale = AnnouncementSchema.parse(
        (
          await (
            await r.signIn(demo.adminUserId)
          )
            .post(`/api/servers/${demo.guildId}/announcements`, { title: 'Stale', message: 'x', channelId: demo.channels.general, scheduleTime: at(10) })
            .expect(200)
        ).body,
      );
      await r.stop();
      r.clock.advance(3 * 3_600_000);
      await r.start();
      const missed = await waitFor(
        async () => (await rows()).find((row) => row.id === stale.id && row.status === 'missed'),
        5000,
        'the stale one marked missed',
      );
      assert.match(missed.error ?? '', /offline at the scheduled time/);
      assert.equal(r.sandbox.world.messages.list(demo.channels.general).filter((message) => message.embeds[0]?.title === 'Stale').length, 0);
    } finally {
      await r.close();
    }
  });

  for (const backend of storeBackends()) {
    test(`two processes on one ${backend.name} database send a scheduled announcement once`, async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url } : {});
      try {
        const first = await r.start();
        await r.start();
        const { demo } = r.sandbox.world;
        const session = await r.signIn(demo.adminUserId);
        for (let i = 0; i < 3; i += 1) {
          await session
            .post(`/api/servers/${demo.guildId}/announcements`, {
              title: `Twice? ${i}`,
              message: 'x',
              channelId: demo.channels.general,
              scheduleTime: new Date(r.clock.ms() + 60_000).toISOString(),
            })
            .expect(200);
        }
        r.clock.advance(2 * 60_000);
        const sentOf = () => r.sandbox.world.messages.list(demo.channels.general).filter((message) => message.embeds[0]?.title?.startsWith('Twice?'));
        await waitFor(() => sentOf().length >= 3, 8000, 'the sends');
        // The barrier: stopping a product waits for its scheduler's pass in flight; none sends after.
        await r.stop();
        await r.stop();
        assert.deepEqual(
          sentOf()
            .map((message) => message.embeds[0]?.title)
            .sort(),
          ['Twice? 0', 'Twice? 1', 'Twice? 2'],
        );
        assert.ok(first);
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  }
});
