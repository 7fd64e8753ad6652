// Recurring announcements and editing in place (issue 25, point 8), through the sandbox: the
// routes walk 401, 400 (naming the field), 403 and 200; a daily announcement goes out when the
// product clock reaches its time, again a day later, then stops at its count; editing a sent one
// PATCHes the same message in the sandbox (its reactions stay), and a deleted one is refused in words;
// two processes on one database send each occurrence once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { AnnouncementPageSchema, AnnouncementSchema } from '../../src/shared/announcements';
import { sendDueAnnouncements } from '../../src/features/announcements/service';
import { useHarness } from '../helpers/harness';
import { restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';

const clock = new ManualClock(Date.UTC(2026, 10, 4, 18)); // Wednesday 4 November 2026, 18:00 UTC
const h = useHarness({}, { clock });
const HOUR = 3_600_000;

describe('recurring announcements', () => {
  const base = () => `/api/servers/${h().guildId}/announcements`;
  const admin = () => h().signIn(h().demo.adminUserId);
  const anonymous = (path: string, method: string, body?: unknown) =>
    fetch(`${h().product.url}${path}`, {
      method,
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const entry = async (id: number) =>
    AnnouncementPageSchema.parse((await (await admin()).get(`${base()}?pageSize=50`).expect(200)).body).entries.find((row) => row.id === id);
  const daily = (extra: Record<string, unknown> = {}) => ({
    title: 'Daily standup',
    message: 'What are you playing today?',
    channelId: h().demo.channels.general,
    recurrence: { frequency: 'daily', time: '09:00', timeZone: 'UTC', count: 2, ...extra },
  });

  test('create: 401 signed out, 400 naming the time zone or the rule, 403 for a member, 200 for an admin', async () => {
    assert.equal((await anonymous(base(), 'POST', daily())).status, 401);
    const session = await admin();
    const badZone = await session.post(base(), daily({ timeZone: 'Europe/Atlantis' })).expect(400);
    assert.equal(badZone.body.fields['recurrence.timeZone'], 'Repeat: time zone must be a time zone such as Europe/Paris.');
    const noDays = await session.post(base(), daily({ frequency: 'weekly' })).expect(400);
    assert.equal(noDays.body.fields['recurrence.weekdays'], 'Repeat: days of the week must have at least one day.');
    const ended = await session.post(base(), daily({ until: '2026-11-04' })).expect(400);
    assert.match(ended.body.fields['recurrence.until'], /before the first time/);
    await (await h().signIn(h().demo.plainMemberId)).post(base(), daily()).expect(403);
    const weekly = AnnouncementSchema.parse(
      (await session.post(base(), { ...daily({ frequency: 'weekly', weekdays: [1, 5], time: '18:30', timeZone: 'Europe/Paris', count: null }) }).expect(200))
        .body,
    );
    assert.equal(weekly.status, 'scheduled');
    assert.equal(weekly.scheduleTime, '2026-11-06T17:30:00.000Z', 'Friday 18:30 in Paris (UTC+1 in November)');
    // Its rule changes while it is scheduled: the next send is recomputed; a bad zone is named.
    const rule = { frequency: 'monthly', dayOfMonth: 31, time: '08:00', timeZone: 'America/New_York' };
    const badRule = await session.patch(`${base()}/${weekly.id}`, { recurrence: { ...rule, timeZone: 'New York' } }).expect(400);
    assert.equal(badRule.body.fields['recurrence.timeZone'], 'Repeat: time zone must be a time zone such as Europe/Paris.');
    const monthly = AnnouncementSchema.parse(
      (await session.patch(`${base()}/${weekly.id}`, { recurrence: rule, baseVersion: weekly.version }).expect(200)).body,
    );
    assert.equal(monthly.scheduleTime, '2026-11-30T13:00:00.000Z', 'the last day of November, 08:00 in New York (UTC-5)');
    assert.equal(monthly.recurrence?.frequency, 'monthly');
    await session.post(`${base()}/${weekly.id}/cancel`).expect(200);
  });

  test('a daily announcement goes out at its time on the product clock, a day later again, then stops at its count', async () => {
    const session = await admin();
    const created = AnnouncementSchema.parse((await session.post(base(), daily()).expect(200)).body);
    assert.equal(created.scheduleTime, '2026-11-05T09:00:00.000Z');
    assert.equal(await sendDueAnnouncements(h().product.services), 0, 'nothing is due yet');

    const sends = async () => (await h().messages(h().demo.channels.general)).filter((message) => message.embeds[0]?.title === 'Daily standup');
    clock.set(Date.UTC(2026, 10, 5, 9, 0, 5));
    const first = await waitFor(async () => ((await entry(created.id))?.sendCount === 1 ? entry(created.id) : undefined), 5000, 'the first send');
    assert.equal(first?.status, 'scheduled');
    assert.equal(first?.scheduleTime, '2026-11-06T09:00:00.000Z', 'the next occurrence, a day later');
    assert.equal((await sends()).length, 1);

    clock.advance(24 * HOUR);
    const second = await waitFor(async () => ((await entry(created.id))?.sendCount === 2 ? entry(created.id) : undefined), 5000, 'the second send');
    assert.equal(second?.status, 'sent', 'its count is reached: it ends');
    assert.equal((await sends()).length, 2);

    clock.advance(24 * HOUR);
    assert.equal(await sendDueAnnouncements(h().product.services), 0, 'nothing more is due');
    assert.equal((await sends()).length, 2, 'no third send');
  });

  test('sends missed while the bot was down: the latest goes out once if recent, the older ones are skipped with a note', async () => {
    const session = await admin();
    const created = AnnouncementSchema.parse((await session.post(base(), daily({ count: null, time: '23:00' })).expect(200)).body);
    const before = clock.ms();
    // Three occurrences pass at once (the scheduler did not run between them); the latest is 30 minutes old.
    clock.set(Date.UTC(2026, 10, new Date(before).getUTCDate() + 2, 23, 30));
    const after = await waitFor(async () => ((await entry(created.id))?.sendCount === 1 ? entry(created.id) : undefined), 5000, 'the catch-up send');
    assert.equal(after?.late, true);
    assert.match(after?.error ?? '', /2 sends were skipped while the bot was offline/);
    assert.equal(
      (await h().messages(h().demo.channels.general)).filter((message) => message.embeds[0]?.title === 'Daily standup').length,
      3,
      'one more, not three',
    );
    await session.post(`${base()}/${created.id}/cancel`).expect(200);
  });

  test('edit message: 401, 400, 403, then 200 PATCHes the same message id; its reactions stay; a deleted one is refused in words', async () => {
    const session = await admin();
    const posted = h().waitForMessage(h().demo.channels.general, (message) => message.embeds[0]?.title === 'Rules update');
    const sent = AnnouncementSchema.parse(
      (await session.post(base(), { title: 'Rules update', message: 'Be kind.', channelId: h().demo.channels.general }).expect(200)).body,
    );
    const message = await posted;
    assert.equal(sent.canEditMessage, true);
    const emoji = encodeURIComponent('👍');
    await h().control('PUT', `/channels/${h().demo.channels.general}/messages/${message.id}/reactions/${emoji}/${h().demo.plainMemberId}`);

    const url = `${base()}/${sent.id}/message`;
    assert.equal((await anonymous(url, 'PATCH', { message: 'x' })).status, 401);
    const bad = await session.patch(url, { priority: 'loud' }).expect(400);
    assert.match(bad.body.fields.priority, /must be one of/);
    await (await h().signIn(h().demo.plainMemberId)).patch(url, { message: 'x' }).expect(403);
    const edited = AnnouncementSchema.parse((await session.patch(url, { message: 'Be kind. Be patient.', baseVersion: sent.version }).expect(200)).body);
    assert.equal(edited.message, 'Be kind. Be patient.');
    assert.ok(edited.editedAt);

    const after = (await h().messages(h().demo.channels.general)).find((row) => row.id === message.id);
    assert.equal(after?.embeds[0]?.description, 'Be kind. Be patient.', 'the same message, edited');
    assert.deepEqual(after?.reactions, [{ emoji: '👍', userIds: [h().demo.plainMemberId] }], 'its reactions stay');
    assert.equal((await h().messages(h().demo.channels.general)).filter((row) => row.embeds[0]?.title === 'Rules update').length, 1, 'no new message');

    const stale = await session.patch(url, { message: 'Old copy', baseVersion: sent.version });
    assert.equal(stale.status, 409);

    await h().control('DELETE', `/channels/${h().demo.channels.general}/messages/${message.id}`);
    const gone = await session.patch(url, { message: 'Too late' });
    assert.equal(gone.status, 422);
    assert.equal(gone.body.message, 'The message was deleted in Discord, so it can no longer be edited.');
    assert.equal((await entry(sent.id))?.message, 'Be kind. Be patient.', 'a refused edit changes nothing');

    // A channel the bot can no longer see: refused in words, the message left as it was.
    const news = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/channels`, { name: 'club-news' });
    await waitFor(() => h().product.client.channels.cache.has(news.body.id), 5000, 'the channel to reach the bot');
    const inNews = AnnouncementSchema.parse((await session.post(base(), { title: 'Club news', message: 'Hello', channelId: news.body.id }).expect(200)).body);
    await h().control('PATCH', `/channels/${news.body.id}`, { overwrites: [{ id: h().demo.roles.bot, type: 'role', deny: ['ViewChannel'] }] });
    const botSees = () => h().product.client.guilds.cache.get(h().guildId)?.members.me?.permissionsIn(news.body.id).has('ViewChannel');
    await waitFor(() => botSees() === false, 5000, 'the overwrite to reach the bot');
    const hidden = await session.patch(`${base()}/${inNews.id}/message`, { message: 'Changed' });
    assert.equal(hidden.status, 422);
    assert.match(hidden.body.message, /^AwesomeBot can no longer see #club-news, so it cannot edit the message\./);

    const scheduled = AnnouncementSchema.parse((await session.post(base(), daily()).expect(200)).body);
    const nothing = await session.patch(`${base()}/${scheduled.id}/message`, { message: 'x' });
    assert.equal(nothing.status, 409);
    assert.match(nothing.body.message, /no message in Discord yet/);
    await session.post(`${base()}/${scheduled.id}/cancel`).expect(200);
  });

  for (const backend of storeBackends()) {
    test(`two processes on one ${backend.name} database send each occurrence of a daily announcement once`, async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url } : {});
      try {
        await r.start();
        await r.start();
        const { demo } = r.sandbox.world;
        const session = await r.signIn(demo.adminUserId);
        const rule = { frequency: 'daily', time: '13:00', timeZone: 'UTC', count: 3 };
        await session
          .post(`/api/servers/${demo.guildId}/announcements`, { title: 'Daily twice?', message: 'x', channelId: demo.channels.general, recurrence: rule })
          .expect(200);
        const sends = () => r.sandbox.world.messages.list(demo.channels.general).filter((message) => message.embeds[0]?.title === 'Daily twice?');
        for (let day = 1; day <= 4; day += 1) {
          r.clock.advance(day === 1 ? HOUR + 5_000 : 24 * HOUR);
          const expected = Math.min(day, 3);
          await waitFor(() => sends().length >= expected, 8000, `send ${expected}`);
        }
        // The barrier: stopping a product waits for its scheduler's pass in flight; none sends after.
        await r.stop();
        await r.stop();
        assert.equal(sends().length, 3, 'each occurrence once, and none past the count');
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  }
});
