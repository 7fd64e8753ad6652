// Moderation through the sandbox: actions from the dashboard and from slash commands land in
// Discord and in the log as numbered cases; Discord's refusals and the moderator's own standing
// refuse with no case; native actions by human moderators become cases once; the warning ladder;
// reports; temporary bans lifted after a restart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ModerationCaseSchema, ModerationLogsPageSchema, ModerationStatsSchema } from '../../src/shared/moderation';
import { ReportsPageSchema } from '../../src/shared/reports';
import { useHarness, type ControlMessage } from '../helpers/harness';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember } from '../factories';

const h = useHarness();
const url = (path: string) => `/api/servers/${h().guildId}${path}`;
const admin = () => h().signIn(h().demo.adminUserId);
/** Cases of the guild for a member, oldest first. */
const casesOf = (userId: string) =>
  h().product.store.models.ModerationLog.findAll({ where: { guildId: h().guildId, targetId: userId }, order: [['caseNumber', 'ASC']] });
/** The log channel's message that passes `match` (posted already, or soon). */
const logged = (match: (message: ControlMessage) => boolean) =>
  waitFor(async () => (await h().messages(h().demo.channels.modLog)).find(match), 5000, 'the log channel post');
const isCase = (n: number) => (message: ControlMessage) => message.embeds.some((embed) => embed.title?.startsWith(`Case #${n} `));

describe('moderation', () => {
  before(async () => {
    const saved = await (await admin()).put(url('/settings'), { logChannelId: h().demo.channels.modLog });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('warn, timeout, kick and ban from the dashboard land in Discord and in the log with case numbers; the member is told by DM first', async () => {
    const session = await admin();
    const target = await buildMember(h());
    const world = h().world;

    const warned = await session.post(url('/moderation'), { action: 'warn', targetId: target.userId, reason: 'Spamming @everyone in #general' });
    assert.equal(warned.status, 200, JSON.stringify(warned.body));
    const warning = ModerationCaseSchema.parse(warned.body);
    assert.equal(warning.action, 'warn');
    assert.equal(warning.source, 'dashboard');
    assert.equal(warning.dmDelivered, true);
    const post = await logged(isCase(warning.caseNumber));
    assert.equal(post.pinged.everyone, false, 'a reason never pings');
    assert.match(post.embeds[0]?.description ?? '', /Spamming @everyone/);
    assert.match(JSON.stringify(world.dms.ofUser(target.userId)?.messages.at(-1)), /You were warned in/);

    const timedOut = ModerationCaseSchema.parse(
      (await session.post(url('/moderation'), { action: 'timeout', targetId: target.userId, reason: 'Cool off', duration: '1h' }).expect(200)).body,
    );
    assert.equal(timedOut.caseNumber, warning.caseNumber + 1);
    assert.equal(timedOut.duration, '1h');
    const until = world.guilds.get(h().guildId)?.members.get(target.userId)?.communicationDisabledUntil;
    assert.ok(until && Date.parse(until) > Date.now() + 3_500_000, 'timed out for an hour in Discord');

    const kicked = ModerationCaseSchema.parse(
      (await session.post(url('/moderation'), { action: 'kick', targetId: target.userId, reason: 'Repeated spam' }).expect(200)).body,
    );
    assert.equal(kicked.caseNumber, timedOut.caseNumber + 1);
    assert.equal(world.guilds.get(h().guildId)?.members.has(target.userId), false, 'kicked in Discord');
    assert.match(JSON.stringify(world.dms.ofUser(target.userId)?.messages.at(-1)), /You were kicked from/);

    const banned = ModerationCaseSchema.parse(
      (await session.post(url('/moderation'), { action: 'ban', targetId: target.userId, reason: 'Ban evasion' }).expect(200)).body,
    );
    assert.ok(world.guilds.get(h().guildId)?.bans.has(target.userId), 'banned in Discord');
    assert.equal(banned.dmDelivered, null, 'not a member any more: no DM tried');
    // The bot's own actions reach it as audit-log entries too: still one case each. The barrier: a
    // human moderator's ban, whose audit-log entry comes after the bot's, recorded as its case.
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const marker = await buildMember(h());
    const native = await h().control('POST', `/guilds/${h().guildId}/moderation`, { action: 'ban', actorId: moderator.userId, targetId: marker.userId });
    assert.ok(native.status < 300, JSON.stringify(native.body));
    await waitFor(async () => (await casesOf(marker.userId)).length === 1, 5000, 'the native ban after them to be recorded');
    assert.deepEqual(
      (await casesOf(target.userId)).map((row) => row.action),
      ['warn', 'timeout', 'kick', 'ban'],
    );
  });

  test('a closed DM is recorded on the case and does not block the action', async () => {
    const target = await buildMember(h());
    h().world.dms.closed.add(target.userId);
    const warned = ModerationCaseSchema.parse(
      (await (await admin()).post(url('/moderation'), { action: 'warn', targetId: target.userId, reason: 'Off topic' }).expect(200)).body,
    );
    assert.equal(warned.dmDelivered, false);
  });

  test('refusals leave no case: above the bot (422), above the moderator (403), bad input (400 naming the field)', async () => {
    const session = await admin();
    const senior = await buildMember(h(), { roleIds: [h().demo.roles.aboveBot] });
    const aboveBot = await session.post(url('/moderation'), { action: 'kick', targetId: senior.userId, reason: 'Test' });
    assert.equal(aboveBot.status, 422);
    assert.match(aboveBot.body.message, /^Senior Staff is above .+'s highest role/);

    const moderator = await buildAccount(h(), { roleIds: [h().demo.roles.moderator] });
    const higher = await buildMember(h(), { roleIds: [h().demo.roles.admin] });
    const refused = await moderator.session.post(url('/moderation'), { action: 'warn', targetId: higher.userId, reason: 'Test' });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /is at or above yours/);

    const missing = await session.post(url('/moderation'), { action: 'timeout', targetId: senior.userId, reason: 'x' });
    assert.equal(missing.status, 400);
    assert.ok(missing.body.fields.duration);
    const notMember = await session.post(url('/moderation'), { action: 'kick', targetId: '123456789012345678', reason: 'x' });
    assert.equal(notMember.status, 400);
    assert.ok(notMember.body.fields.targetId);
    for (const userId of [senior.userId, higher.userId]) assert.equal((await casesOf(userId)).length, 0);
  });

  test('slash commands act as the moderator, need the Discord permission, and /case and /warnings answer privately', async () => {
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const target = await buildMember(h());
    const reply = await h().slash(moderator.userId, 'warn', { member: target.userId, reason: 'Be kind @everyone' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.match(reply.body.content, /^Case #\d+ · warned/);
    const [row] = await casesOf(target.userId);
    assert.equal(row?.source, 'command');
    assert.equal(row?.moderatorId, moderator.userId);

    const shown = await h().slash(moderator.userId, 'case show', { number: row?.caseNumber ?? 0 });
    assert.equal(shown.body.ephemeral, true);
    assert.equal(shown.body.embeds[0]?.title, `Case #${row?.caseNumber} · warn`);
    const listed = await h().slash(moderator.userId, 'warnings', { member: target.userId });
    assert.match(listed.body.content, /has 1 active warning:/);

    const plain = await buildMember(h());
    const refused = await h().slash(plain.userId, 'ban', { member: target.userId, reason: 'no' });
    assert.ok(!h().world.guilds.get(h().guildId)?.bans.has(target.userId));
    assert.doesNotMatch(refused.body.content ?? '', /^Case/);
    assert.equal((await casesOf(target.userId)).length, 1);
  });

  test('a ban by a human moderator in Discord becomes one case with that moderator', async () => {
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const target = await buildMember(h());
    const done = await h().control('POST', `/guilds/${h().guildId}/moderation`, {
      action: 'ban',
      actorId: moderator.userId,
      targetId: target.userId,
      reason: 'Raid account',
    });
    assert.ok(done.status < 300, JSON.stringify(done.body));
    await waitFor(async () => (await casesOf(target.userId)).length === 1, 5000, 'the native ban to be recorded');
    const [row] = await casesOf(target.userId);
    assert.equal(row?.source, 'discord');
    assert.equal(row?.moderatorId, moderator.userId);
    assert.equal(row?.reason, 'Raid account');
    await logged(isCase(row?.caseNumber ?? 0));
  });

  test('the third active warning times the member out automatically', async () => {
    const session = await admin();
    await session.put(url('/settings'), { escalation: [{ warnings: 3, action: 'timeout', duration: '1h' }] }).expect(200);
    const target = await buildMember(h());
    for (let i = 1; i <= 3; i++) await session.post(url('/moderation'), { action: 'warn', targetId: target.userId, reason: `Warning ${i}` }).expect(200);
    const rows = await casesOf(target.userId);
    assert.deepEqual(
      rows.map((row) => row.action),
      ['warn', 'warn', 'warn', 'timeout'],
    );
    assert.equal(rows[3]?.reason, 'Automatic: 3 active warnings');
    assert.equal(rows[3]?.source, 'automatic');
    assert.ok(h().world.guilds.get(h().guildId)?.members.get(target.userId)?.communicationDisabledUntil);
    await session.put(url('/settings'), { escalation: [] }).expect(200);
  });

  test('/report posts an alert to the log channel, lists in View Reports, and resolving with an action links the case', async () => {
    const reporter = await buildMember(h());
    const target = await buildMember(h());
    const reply = await h().slash(reporter.userId, 'report', { member: target.userId, reason: 'Sending scam links' });
    assert.equal(reply.body.ephemeral, true);
    assert.equal(reply.body.content, 'Thanks, the moderators have your report.');
    await logged((message) => message.embeds.some((embed) => embed.description === 'Reason: Sending scam links'));

    const session = await admin();
    const open = ReportsPageSchema.parse((await session.get(url('/moderation/reports?status=open')).expect(200)).body);
    const report = open.entries.find((entry) => entry.targetId === target.userId);
    assert.ok(report);
    const resolved = await session.post(url(`/moderation/reports/${report.id}/resolve`), { action: { action: 'warn', reason: 'Scam links' } }).expect(200);
    assert.equal(resolved.body.status, 'resolved');
    assert.equal(resolved.body.caseNumber, (await casesOf(target.userId))[0]?.caseNumber);
    const again = await session.post(url(`/moderation/reports/${report.id}/dismiss`), {});
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'That report was already resolved.');
  });

  test("'Report message' reports the author with the message's link and text", async () => {
    const reporter = await buildMember(h());
    const author = await buildMember(h());
    const said = await h().control<{ id: string }>('POST', `/channels/${h().demo.channels.general}/messages`, {
      authorId: author.userId,
      content: 'buy cheap nitro at example.com @everyone',
    });
    assert.ok(said.status < 300, JSON.stringify(said.body));
    const reply = await h().messageCommand(reporter.userId, 'Report message', said.body.id);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.ephemeral, true);
    const rows = await h().product.store.models.ModerationReport.findAll({ where: { guildId: h().guildId, targetId: author.userId } });
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.content, 'buy cheap nitro at example.com @everyone');
    assert.equal(rows[0]?.messageId, said.body.id);
    const alert = await logged((message) => message.embeds.some((embed) => embed.fields?.some((field) => field.value.includes(said.body.id))));
    assert.equal(alert.pinged.everyone, false);
  });

  test('the logs are searched and filtered on the server; the stats count the whole log', async () => {
    const session = await admin();
    const target = await buildMember(h());
    await session.post(url('/moderation'), { action: 'note', targetId: target.userId, reason: 'Unusual zebra pattern' }).expect(200);
    const found = ModerationLogsPageSchema.parse((await session.get(url('/moderation/logs?q=zebra')).expect(200)).body);
    assert.equal(found.total, 1);
    assert.equal(found.entries[0]?.targetId, target.userId);
    assert.equal(ModerationLogsPageSchema.parse((await session.get(url('/moderation/logs?q=zebra&action=ban')).expect(200)).body).total, 0);
    const byId = ModerationLogsPageSchema.parse((await session.get(url(`/moderation/logs?q=${target.userId}`)).expect(200)).body);
    assert.equal(byId.total, 1);
    // A case number with its #, as the Moderation page's search box takes it.
    const caseNumber = found.entries[0]?.caseNumber ?? 0;
    const byNumber = ModerationLogsPageSchema.parse((await session.get(url(`/moderation/logs?q=${encodeURIComponent(`#${caseNumber}`)}`)).expect(200)).body);
    assert.deepEqual(
      byNumber.entries.map((entry) => entry.caseNumber),
      [caseNumber],
    );
    const bans = ModerationLogsPageSchema.parse((await session.get(url('/moderation/logs?action=ban&pageSize=100')).expect(200)).body);
    assert.ok(bans.entries.every((entry) => entry.action === 'ban'));
    const stats = ModerationStatsSchema.parse((await session.get(url('/moderation/stats')).expect(200)).body);
    assert.equal(stats.bans, bans.total);
    assert.equal(stats.totalActions, await h().product.store.models.ModerationLog.count({ where: { guildId: h().guildId } }));
    const bad = await session.get(url('/moderation/logs?action=explode'));
    assert.equal(bad.status, 400);
    assert.ok(bad.body.fields.action);
  });
});

describe('temporary bans', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    await r.start();
  });
  after(() => r.close());

  test('are lifted at expiry by the bot, also when it was down at the time', async () => {
    const { world } = r.sandbox;
    const guildId = world.demo.guildId;
    const target = world.addMember(guildId, { username: 'tempbanned' });
    const session = await r.signIn(world.demo.adminUserId);
    await waitFor(() => r.product().client.guilds.cache.get(guildId)?.members.cache.has(target.userId), 5000, 'the member to reach the bot');
    const banned = await session.post(`/api/servers/${guildId}/moderation`, { action: 'ban', targetId: target.userId, reason: 'Cool off', duration: '1d' });
    assert.equal(banned.status, 200, JSON.stringify(banned.body));
    assert.ok(world.guilds.get(guildId)?.bans.has(target.userId));

    await r.stop();
    r.clock.advance(86_400_000 + 1000);
    await r.start();
    await waitFor(() => !world.guilds.get(guildId)?.bans.has(target.userId), 5000, 'the ban to be lifted after the restart');
    const casesNow = () => r.product().store.models.ModerationLog.findAll({ where: { guildId, targetId: target.userId }, order: [['caseNumber', 'ASC']] });
    // The ban is lifted in Discord first, then its case is written.
    const rows = await waitFor(async () => ((await casesNow()).length === 2 ? casesNow() : null), 5000, 'the unban case');
    assert.deepEqual(
      rows.map((row) => [row.action, row.source]),
      [
        ['ban', 'dashboard'],
        ['unban', 'automatic'],
      ],
    );
    assert.ok(rows[0]?.liftedAt);
    assert.match(rows[1]?.reason ?? '', /^Temporary ban expired \(case #\d+\)$/);
  });
});
