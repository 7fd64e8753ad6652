// Cases as living records through the sandbox (issue 24, point 1): a member's record, a case's
// reason and duration edited after the fact (Discord changed too, the history kept, the log channel
// told), warnings pardoned out of the ladder, and /case show|edit|pardon and /note, each through
// the same domain functions, with the moderator's Discord rights checked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ModerationCaseSchema } from '../../src/shared/moderation';
import { MemberRecordSchema } from '../../src/shared/moderation-cases';
import { buildGrant, buildMember } from '../factories';
import { useHarness, type ControlMessage } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const h = useHarness();
const url = (path: string) => `/api/servers/${h().guildId}${path}`;
const admin = () => h().signIn(h().demo.adminUserId);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Runs an action from the dashboard as the admin; answers its case. */
async function act(body: Record<string, unknown>) {
  const response = await (await admin()).post(url('/moderation'), body);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return ModerationCaseSchema.parse(response.body);
}

/** Moves a case's start back in time (as if it had been taken `ms` ago), keeping its length. */
async function startedAgo(caseNumber: number, ms: number) {
  const row = await h().product.store.models.ModerationLog.findOne({ where: { guildId: h().guildId, caseNumber } });
  assert.ok(row);
  const createdAt = new Date(Date.now() - ms);
  const expiresAt = row.expiresAt ? new Date(createdAt.getTime() + (row.expiresAt.getTime() - row.createdAt.getTime())) : null;
  // Sequelize leaves createdAt out of updates: the row is changed in SQL.
  await h().product.store.sequelize.query('UPDATE moderation_logs SET "createdAt" = ?, "expiresAt" = ? WHERE id = ?', {
    replacements: [createdAt, expiresAt, row.id],
  });
}

const timedOutUntil = (userId: string) => h().world.guilds.get(h().guildId)?.members.get(userId)?.communicationDisabledUntil ?? null;
const record = async (userId: string) => MemberRecordSchema.parse((await (await admin()).get(url(`/moderation/members/${userId}`)).expect(200)).body);

describe('cases as living records', () => {
  before(async () => {
    const saved = await (await admin()).put(url('/settings'), { logChannelId: h().demo.channels.modLog, escalation: [] });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('GET a member’s record: 401 signed out, 400 for a bad id, 403 without dashboard access, then 200 with their cases', async () => {
    const target = await buildMember(h());
    const path = url(`/moderation/members/${target.userId}`);
    const anonymous = await fetch(`${h().product.url}${path}`);
    assert.equal(anonymous.status, 401);
    const session = await admin();
    assert.ok((await session.get(url('/moderation/members/not-an-id')).expect(400)).body.fields.userId);
    await (await h().signIn(h().demo.plainMemberId)).get(path).expect(403);
    const empty = MemberRecordSchema.parse((await session.get(path).expect(200)).body);
    assert.deepEqual([empty.cases.length, empty.activeWarnings, empty.inServer], [0, 0, true]);
    assert.match(empty.ladder.text, /No warning ladder/);
    await act({ action: 'note', targetId: target.userId, reason: 'Helpful in #support' });
    await act({ action: 'warn', targetId: target.userId, reason: 'Off topic' });
    const full = await record(target.userId);
    assert.deepEqual(
      full.cases.map((c) => c.action),
      ['warn', 'note'],
      'newest first, notes included',
    );
    assert.equal(full.activeWarnings, 1);
  });

  test('PATCH a case: 401, 400 naming the field, 403 without access or without Ban Members for a ban, then 200 with the edit kept and logged', async () => {
    const target = await buildMember(h());
    const ban = await act({ action: 'ban', targetId: target.userId, reason: 'Raiding', duration: '1d' });
    const path = url(`/moderation/cases/${ban.caseNumber}`);
    const anonymous = await fetch(`${h().product.url}${path}`, {
      method: 'PATCH',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'x' }),
    });
    assert.equal(anonymous.status, 401);
    const session = await admin();
    assert.equal((await session.patch(path, {}).expect(400)).body.fields.reason, 'Reason is required when the duration is not changed.');
    assert.ok((await session.patch(path, { duration: 'forever' }).expect(400)).body.fields.duration);
    assert.ok((await session.patch(url('/moderation/cases/0'), { reason: 'x' }).expect(400)).body.fields.caseNumber);
    await (await h().signIn(h().demo.plainMemberId)).patch(path, { reason: 'x' }).expect(403);
    // Delegated dashboard access adds no Discord power: without Ban Members, a ban's duration stays.
    const helper = await buildMember(h());
    await buildGrant(h(), { subjectId: helper.userId, level: 'edit' });
    const refused = await (await h().signIn(helper.userId)).patch(path, { duration: 'permanent' }).expect(403);
    assert.equal(refused.body.message, "You need the Ban Members permission in Discord to change a ban's duration.");

    const waiting = h().waitForMessage(h().demo.channels.modLog, (m) => m.embeds.some((e) => e.title === `Case #${ban.caseNumber} updated`));
    const edited = ModerationCaseSchema.parse((await session.patch(path, { reason: 'Raiding with alts @everyone', duration: '1w' }).expect(200)).body);
    assert.equal(edited.reason, 'Raiding with alts @everyone');
    assert.equal(edited.duration, '1w');
    assert.equal(Date.parse(edited.expiresAt ?? ''), Date.parse(ban.createdAt) + 7 * DAY, 'counted from the case’s start');
    assert.deepEqual(
      edited.edits.map((e) => [e.field, e.from, e.to, e.byId]),
      [
        ['duration', '1d', '1w', h().demo.adminUserId],
        ['reason', 'Raiding', 'Raiding with alts @everyone', h().demo.adminUserId],
      ],
    );
    const post: ControlMessage = await waiting;
    assert.deepEqual(post.pinged, { users: [], roles: [], everyone: false });
    assert.match(post.embeds[0]?.description ?? '', /Duration: 1 week \(was: 1 day\)/);

    // Permanent and back; a length already over is lifted by the sweep.
    const permanent = ModerationCaseSchema.parse((await session.patch(path, { duration: 'permanent' }).expect(200)).body);
    assert.deepEqual([permanent.duration, permanent.expiresAt], [null, null]);
    await startedAgo(ban.caseNumber, 2 * HOUR);
    await session.patch(path, { duration: '1h' }).expect(200);
    await waitFor(() => !h().world.guilds.get(h().guildId)?.bans.has(target.userId), 5000, 'the sweep to lift the ban');
    const over = await session.patch(path, { duration: '1w' }).expect(409);
    assert.match(over.body.message, /ban is no longer in force/);
    const note = await act({ action: 'note', targetId: h().demo.plainMemberId, reason: 'n' });
    const notTimed = await session.patch(url(`/moderation/cases/${note.caseNumber}`), { duration: '1h' }).expect(400);
    assert.equal(notTimed.body.message, `Case #${note.caseNumber} is a note: only a timeout or a ban has a duration.`);
  });

  test('POST a pardon: 401, 400, 403, then 200; the pardon is a case in the log and the warning stops counting', async () => {
    const target = await buildMember(h());
    const warning = await act({ action: 'warn', targetId: target.userId, reason: 'Spam' });
    const path = url(`/moderation/cases/${warning.caseNumber}/pardon`);
    const anonymous = await fetch(`${h().product.url}${path}`, {
      method: 'POST',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'x' }),
    });
    assert.equal(anonymous.status, 401);
    const session = await admin();
    assert.equal((await session.post(path, { reason: '  ' }).expect(400)).body.fields.reason, 'Reason is required.');
    await (await h().signIn(h().demo.plainMemberId)).post(path, { reason: 'x' }).expect(403);
    assert.equal((await record(target.userId)).activeWarnings, 1);
    const pardon = ModerationCaseSchema.parse((await session.post(path, { reason: 'Apologised' }).expect(200)).body);
    assert.deepEqual([pardon.action, pardon.pardonOf, pardon.reason], ['pardon', warning.caseNumber, 'Apologised']);
    const after = await record(target.userId);
    assert.equal(after.activeWarnings, 0);
    const pardoned = after.cases.find((c) => c.caseNumber === warning.caseNumber);
    assert.equal(pardoned?.pardonCaseNumber, pardon.caseNumber);
    assert.match((await session.post(path, { reason: 'again' }).expect(409)).body.message, /pardoned already/);
    const logs = await session.get(url('/moderation/logs?action=pardon')).expect(200);
    assert.ok(logs.body.entries.some((entry: { caseNumber: number }) => entry.caseNumber === pardon.caseNumber));
  });

  test('/case edit of a timeout changes it in Discord: longer from the case’s start, lifted when already over', async () => {
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const target = await buildMember(h());
    const timeout = await act({ action: 'timeout', targetId: target.userId, reason: 'Cool off', duration: '1h' });
    const reply = await h().slash(moderator.userId, 'case edit', { number: timeout.caseNumber, duration: '1d' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.ephemeral, true);
    assert.match(reply.body.content, new RegExp(`^Case #${timeout.caseNumber} updated · Ends <t:\\d+:f>\\.$`));
    const until = Date.parse(timedOutUntil(target.userId) ?? '');
    assert.ok(Math.abs(until - (Date.parse(timeout.createdAt) + DAY)) < 5000, `timed out until a day after the case began (${new Date(until).toISOString()})`);

    await startedAgo(timeout.caseNumber, 2 * HOUR);
    const lifted = await h().slash(moderator.userId, 'case edit', { number: timeout.caseNumber, duration: '1h', reason: 'Served' });
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    await waitFor(() => timedOutUntil(target.userId) === null, 5000, 'the timeout to be lifted in Discord');
    const shown = await h().slash(moderator.userId, 'case show', { number: timeout.caseNumber });
    assert.equal(shown.body.embeds[0]?.description, 'Served');
    assert.match(JSON.stringify(shown.body.embeds[0]?.fields), /Lifted <t:/);
    const again = await h().slash(moderator.userId, 'case edit', { number: timeout.caseNumber, duration: '1w' });
    assert.match(again.body.content, /timeout is over, so its duration cannot change/);

    // The moderator must outrank the member, as for the timeout itself.
    const peer = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const peerTimeout = await act({ action: 'timeout', targetId: peer.userId, reason: 'Heated', duration: '1h' });
    const before = timedOutUntil(peer.userId);
    const outranked = await h().slash(moderator.userId, 'case edit', { number: peerTimeout.caseNumber, duration: '1w' });
    assert.match(outranked.body.content, /highest role \(Moderator\) is at or above yours, so you cannot timeout them\.$/);
    assert.equal(timedOutUntil(peer.userId), before, 'Discord unchanged');
  });

  test('/case pardon takes a warning out of the ladder: the next warning does not take the step it would have', async () => {
    const session = await admin();
    await session.put(url('/settings'), { escalation: [{ warnings: 2, action: 'timeout', duration: '1h' }] }).expect(200);
    try {
      const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
      const target = await buildMember(h());
      const first = await h().slash(moderator.userId, 'warn', { member: target.userId, reason: 'One' });
      const number = Number(/^Case #(\d+)/.exec(first.body.content)?.[1]);
      assert.match((await record(target.userId)).ladder.text, /^Next warning: 1 hour timeout$/);
      const pardoned = await h().slash(moderator.userId, 'case pardon', { number, reason: 'A misunderstanding' });
      assert.match(pardoned.body.content, new RegExp(`^Warning #${number} pardoned`));
      assert.equal(pardoned.body.ephemeral, true);
      await h().slash(moderator.userId, 'warn', { member: target.userId, reason: 'Two' });
      const after = await record(target.userId);
      assert.equal(after.activeWarnings, 1);
      assert.equal(timedOutUntil(target.userId), null, 'no ladder step');
      const listed = await h().slash(moderator.userId, 'warnings', { member: target.userId });
      assert.match(listed.body.content, /has 1 active warning:\n.*Two\nNext warning: 1 hour timeout$/);
      assert.ok(!after.cases.some((c) => c.action === 'timeout'));
      await h().slash(moderator.userId, 'warn', { member: target.userId, reason: 'Three' });
      await waitFor(() => timedOutUntil(target.userId), 5000, 'the ladder’s timeout at two active warnings');
    } finally {
      await session.put(url('/settings'), { escalation: [] }).expect(200);
    }
  });

  test('/note records a note shown on the member’s record; pardoning is for warnings only', async () => {
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const target = await buildMember(h());
    const noted = await h().slash(moderator.userId, 'note', { member: target.userId, text: 'Prefers DMs' });
    assert.equal(noted.body.ephemeral, true);
    const { cases } = await record(target.userId);
    assert.deepEqual(
      cases.map((c) => [c.action, c.reason]),
      [['note', 'Prefers DMs']],
    );
    const refused = await h().slash(moderator.userId, 'case pardon', { number: cases[0]?.caseNumber ?? 0, reason: 'x' });
    assert.match(refused.body.content, /is not a warning: only warnings can be pardoned\.$/);
    // The text command takes the subcommand's word after the name; without one it says which there are.
    const text = await h().say(moderator.userId, `!case   SHOW ${cases[0]?.caseNumber ?? 0}`);
    assert.equal(text.embeds[0]?.title, `Case #${cases[0]?.caseNumber} · note`);
    assert.equal(
      (await h().say(moderator.userId, '!case')).content,
      'Use !case show <number>, !case edit <number> [reason] [duration] or !case pardon <number> <reason>.',
    );
    const reworded = await h().say(moderator.userId, `!case edit ${cases[0]?.caseNumber ?? 0} "Prefers DMs, not pings"`);
    assert.match(reworded.content, /^Case #\d+ updated\.$/);
  });
});
