// One member reporting the same member again: once per 10 minutes (REPORT_REPEAT_WINDOW_MS), across
// /report and Report message, counted from the stored reports with the clock service, so it holds
// after a restart and under concurrency (two reports at once: one passes), on SQLite and, when
// TEST_DATABASE_URL is set, PostgreSQL. The refusal says when they can report again, or that their
// earlier report is still open.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { RateLimited } from '../../src/core/errors';
import { createReport } from '../../src/features/moderation/reports';
import { REPORT_REPEAT_WINDOW_MS, REPORT_SELF_MESSAGES } from '../../src/shared/reports';
import { useHarness } from '../helpers/harness';
import { restartable } from '../helpers/restart';
import { storeBackends } from '../helpers/store';
import { buildMember } from '../factories';

const clock = new ManualClock(Date.UTC(2026, 10, 5, 9));
const h = useHarness({}, { clock });
const MINUTE = 60_000;

describe('reporting the same member again', () => {
  test('/report and Report message: once per 10 minutes per reporter and member; others are not held back', async () => {
    const [reporter, other, target, second] = [
      await buildMember(h()),
      await buildMember(h()),
      await buildMember(h(), { username: 'noisy' }),
      await buildMember(h()),
    ];
    const report = (from: string, member: string) => h().slash(from, 'report', { member, reason: 'Spam' });
    assert.equal((await report(reporter.userId, reporter.userId)).body.content, 'You cannot report yourself.');
    assert.equal((await report(reporter.userId, target.userId)).body.content, 'Thanks, the moderators have your report.');

    const again = await report(reporter.userId, target.userId);
    assert.equal(again.body.content, 'Your earlier report of noisy is still open, and the moderators have it. You can report noisy again in 10 minutes.');
    assert.equal(again.body.ephemeral, true);
    clock.advance(4 * MINUTE);
    const said = await h().control<{ id: string }>('POST', `/channels/${h().demo.channels.general}/messages`, {
      authorId: target.userId,
      content: 'spam spam',
    });
    assert.equal(
      (await h().messageCommand(reporter.userId, 'Report message', said.body.id)).body.content,
      'Your earlier report of noisy is still open, and the moderators have it. You can report noisy again in 6 minutes.',
    );

    assert.equal((await report(other.userId, target.userId)).body.content, 'Thanks, the moderators have your report.', 'another reporter');
    assert.equal((await report(reporter.userId, second.userId)).body.content, 'Thanks, the moderators have your report.', 'another member');
    const rows = () =>
      h().product.store.models.ModerationReport.findAll({ where: { guildId: h().guildId, reporterId: reporter.userId, targetId: target.userId } });
    assert.equal((await rows()).length, 1);

    // Dismissed, the earlier report no longer holds the member back as "open", but the window still runs.
    const [first] = await rows();
    await (await h().signIn(h().demo.adminUserId)).post(`/api/servers/${h().guildId}/moderation/reports/${first?.id}/dismiss`, {}).expect(200);
    assert.equal((await report(reporter.userId, target.userId)).body.content, 'You reported noisy a few minutes ago. You can report noisy again in 6 minutes.');
    clock.advance(REPORT_REPEAT_WINDOW_MS - 4 * MINUTE);
    assert.equal((await report(reporter.userId, target.userId)).body.content, 'Thanks, the moderators have your report.', 'the window has passed');
    assert.equal((await rows()).length, 2);
  });

  test("the domain refuses a report of oneself or of one's own message, on every face, and stores nothing", async () => {
    const member = await buildMember(h());
    const self = { id: member.userId, name: 'me' };
    const services = h().product.services;
    await assert.rejects(createReport(services, h().guildId, { reporter: self, target: self, reason: 'Spam' }), {
      name: 'InvalidInput',
      message: REPORT_SELF_MESSAGES.member,
      fields: { member: 'Member cannot be yourself.' },
    });
    const message = { id: '900000000000000001', channelId: h().demo.channels.general, content: 'mine' };
    await assert.rejects(createReport(services, h().guildId, { reporter: self, target: self, reason: 'Spam', message }), {
      name: 'InvalidInput',
      message: REPORT_SELF_MESSAGES.message,
    });
    // The Report message menu inherits the refusal.
    const said = await h().control<{ id: string }>('POST', `/channels/${h().demo.channels.general}/messages`, { authorId: member.userId, content: 'mine' });
    assert.equal((await h().messageCommand(member.userId, 'Report message', said.body.id)).body.content, REPORT_SELF_MESSAGES.message);
    assert.equal(await h().product.store.models.ModerationReport.count({ where: { guildId: h().guildId, reporterId: member.userId } }), 0);
  });

  test('two reports sent at once: one passes', async () => {
    const [reporter, target] = [await buildMember(h()), await buildMember(h())];
    const replies = await Promise.all([1, 2].map(() => h().slash(reporter.userId, 'report', { member: target.userId, reason: 'Spam' })));
    assert.deepEqual(replies.map((reply) => reply.body.content.startsWith('Thanks')).sort(), [false, true]);
    assert.equal(
      await h().product.store.models.ModerationReport.count({ where: { guildId: h().guildId, reporterId: reporter.userId, targetId: target.userId } }),
      1,
    );
  });
});

for (const backend of storeBackends()) {
  describe(`the report limit on ${backend.name}`, () => {
    test('20 reports at once make one; after a restart the stored report still holds the next back', async () => {
      const database = backend.name === 'postgres' ? await backend.createDatabase() : null;
      const r = await restartable(database ? { databaseUrl: database.url, memberCount: 20 } : { memberCount: 20 });
      try {
        const { services, store } = await r.start();
        const { guildId, plainMemberId, ownerUserId } = r.sandbox.world.demo;
        const input = { reporter: { id: plainMemberId, name: 'Pat' }, target: { id: ownerUserId, name: 'Sam' }, reason: 'Spam' };
        const results = await Promise.allSettled(Array.from({ length: 20 }, () => createReport(services, guildId, input)));
        assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, 'exactly one report');
        for (const result of results) if (result.status === 'rejected') assert.ok(result.reason instanceof RateLimited, String(result.reason));
        assert.equal(await store.models.ModerationReport.count({ where: { guildId, reporterId: plainMemberId } }), 1);

        await r.stop();
        r.clock.advance(5 * MINUTE);
        const restarted = await r.start();
        await assert.rejects(createReport(restarted.services, guildId, input), { name: 'RateLimited', retryAfterSeconds: 300 });
        r.clock.advance(5 * MINUTE);
        await createReport(restarted.services, guildId, input);
      } finally {
        await r.close();
        await database?.drop();
      }
    });
  });
}
