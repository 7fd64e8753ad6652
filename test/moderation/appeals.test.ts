// Ban appeals through the sandbox (issue 24, point 6): the ban's DM links to the appeal page (when
// the server takes appeals, and only for bans); only the banned member sees and appeals their ban,
// once at a time; the moderators are told in the log channel, list appeals and accept (the sandbox
// ban is lifted as an unban case naming the appeal, the member is DMed where Discord lets the bot
// reach them) or deny with a reason, from the dashboard and with /appeal.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { APPEAL_MESSAGES, APPEAL_RETRY_MS, AppealSchema, AppealsPageSchema, MemberAppealViewSchema } from '../../src/shared/appeals';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildGrant, buildMember } from '../factories';

const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
const h = useHarness({}, { clock });
const guildUrl = (path: string) => `/api/servers/${h().guildId}${path}`;
const appealUrl = (userId: string) => `/api/appeals/${h().guildId}/${userId}`;
const admin = () => h().signIn(h().demo.adminUserId);
const lastDm = (userId: string) => JSON.stringify(h().world.dms.ofUser(userId)?.messages.at(-1) ?? null);
const isBanned = (userId: string) => h().world.guilds.get(h().guildId)?.bans.has(userId) ?? false;
const TEXT = 'I am sorry for the spam; I read the rules and it will not happen again.';

/** A new member banned from the dashboard by the admin; returns their id. */
async function bannedMember(reason = 'Spam in #general'): Promise<string> {
  const { userId } = await buildMember(h());
  await (await admin()).post(guildUrl('/moderation'), { action: 'ban', targetId: userId, reason }).expect(200);
  return userId;
}

/** Signs the banned member in and appeals; returns the appeal. */
async function appeal(userId: string, text = TEXT) {
  const session = await h().signIn(userId);
  return AppealSchema.parse((await session.post(appealUrl(userId), { text }).expect(200)).body);
}

/** A write without a session, as a browser of the dashboard's origin sends it. */
const anonymous = (path: string, method: string, body?: unknown) =>
  fetch(`${h().product.url}${path}`, {
    method,
    headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('ban appeals', () => {
  before(async () => {
    const saved = await (await admin()).put(guildUrl('/settings'), { logChannelId: h().demo.channels.modLog });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test("a ban's DM links to the appeal page when the server takes appeals; a kick's does not, nor a ban's once appeals are off", async () => {
    const userId = await bannedMember();
    const link = `${h().product.config.publicUrl}/appeal/${h().guildId}/${userId}`;
    assert.match(lastDm(userId), /You were banned from/);
    assert.ok(lastDm(userId).includes(link), lastDm(userId));

    const kicked = await buildMember(h());
    await (await admin()).post(guildUrl('/moderation'), { action: 'kick', targetId: kicked.userId, reason: 'Rude' }).expect(200);
    assert.match(lastDm(kicked.userId), /You were kicked from/);
    assert.doesNotMatch(lastDm(kicked.userId), /appeal/i);

    const session = await admin();
    await session.put(guildUrl('/settings'), { appealsEnabled: false }).expect(200);
    try {
      const quiet = await bannedMember();
      assert.match(lastDm(quiet), /You were banned from/);
      assert.doesNotMatch(lastDm(quiet), /appeal/i);
      const view = MemberAppealViewSchema.parse((await (await h().signIn(quiet)).get(appealUrl(quiet)).expect(200)).body);
      assert.equal(view.canAppeal, false);
      assert.equal(view.notice, APPEAL_MESSAGES.disabled);
      await (await h().signIn(quiet)).post(appealUrl(quiet), { text: TEXT }).expect(403);
    } finally {
      await session.put(guildUrl('/settings'), { appealsEnabled: true }).expect(200);
    }
  });

  test('the member routes: 401 signed out, 400 naming the text, 403 for anyone but the banned member, 200 for them; one open appeal per case', async () => {
    const userId = await bannedMember('Posted scam links');
    assert.equal((await anonymous(appealUrl(userId), 'GET')).status, 401);
    assert.equal((await anonymous(appealUrl(userId), 'POST', { text: TEXT })).status, 401);

    const member = await h().signIn(userId);
    assert.equal((await member.post(appealUrl(userId), { text: 'too short' }).expect(400)).body.fields.text, 'Text must be at least 20 characters.');
    assert.equal((await member.post(appealUrl(userId), { text: 'x'.repeat(2001) }).expect(400)).body.fields.text, 'Text must be at most 2,000 characters.');
    assert.equal((await member.post(appealUrl(userId), {}).expect(400)).body.fields.text, 'Text is required.');
    assert.equal((await member.get(`/api/appeals/${h().guildId}/12`).expect(400)).body.fields.userId, 'Member must be a Discord id (15 to 21 digits).');

    const other = await h().signIn(h().demo.plainMemberId);
    assert.equal((await other.get(appealUrl(userId)).expect(403)).body.message, APPEAL_MESSAGES.notYours);
    assert.equal((await other.post(appealUrl(userId), { text: TEXT }).expect(403)).body.message, APPEAL_MESSAGES.notYours);
    const moderatorToo = await admin();
    assert.equal((await moderatorToo.get(appealUrl(userId)).expect(403)).body.message, APPEAL_MESSAGES.notYours);
    assert.equal((await other.get(appealUrl(h().demo.plainMemberId)).expect(404)).body.message, APPEAL_MESSAGES.noBan);
    assert.equal(await h().product.store.models.ModerationAppeal.count({ where: { userId } }), 0, 'refusals store nothing');

    const settings = await admin();
    assert.equal(
      (await settings.put(guildUrl('/settings'), { appealIntro: 'x'.repeat(1001) }).expect(400)).body.fields.appealIntro,
      'Words on the appeal page must be at most 1,000 characters.',
    );
    await settings.put(guildUrl('/settings'), { appealIntro: 'Say what happened. We answer within a week.' }).expect(200);
    const before = MemberAppealViewSchema.parse((await member.get(appealUrl(userId)).expect(200)).body);
    assert.equal(before.intro, 'Say what happened. We answer within a week.');
    assert.equal(before.reason, 'Posted scam links');
    assert.equal(before.canAppeal, true);
    assert.equal(before.appeal, null);
    assert.ok(before.guildName.length > 0);

    const notice = h().waitForMessage(h().demo.channels.modLog, (message) => message.embeds.some((embed) => embed.title?.startsWith('Appeal #')));
    const made = AppealSchema.parse((await member.post(appealUrl(userId), { text: `  ${TEXT}  ` }).expect(200)).body);
    assert.equal(made.text, TEXT);
    assert.equal(made.status, 'open');
    assert.equal(made.caseNumber, before.caseNumber);
    const posted = await notice;
    assert.ok(posted.embeds[0]?.title?.includes(`case #${before.caseNumber}`));
    assert.deepEqual(posted.pinged, { users: [], roles: [], everyone: false });

    const again = await member.post(appealUrl(userId), { text: TEXT }).expect(409);
    assert.equal(again.body.message, APPEAL_MESSAGES.alreadyOpen);
    const after = MemberAppealViewSchema.parse((await member.get(appealUrl(userId)).expect(200)).body);
    assert.equal(after.canAppeal, false);
    assert.equal(after.notice, APPEAL_MESSAGES.alreadyOpen);
    assert.equal(after.appeal?.status, 'open');
    assert.equal(await h().product.store.models.ModerationAppeal.count({ where: { userId } }), 1);
  });

  test('two appeals of one case at once: one is stored, the other told it is already open', async () => {
    const userId = await bannedMember();
    const member = await h().signIn(userId);
    const answers = await Promise.all([member.post(appealUrl(userId), { text: TEXT }), member.post(appealUrl(userId), { text: `${TEXT}!` })]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    assert.equal(await h().product.store.models.ModerationAppeal.count({ where: { userId, status: 'open' } }), 1);
  });

  test('the moderators: 401, 400, 403 (no dashboard access; no Ban Members), then accept lifts the ban, records it and DMs the member', async () => {
    const userId = await bannedMember();
    // The member shares another server with the bot, so the decision's DM can arrive.
    h().world.addMember(h().demo.thirdGuildId, { id: userId, username: 'appellant' });
    const made = await appeal(userId);
    const accept = guildUrl(`/moderation/appeals/${made.id}/accept`);

    assert.equal((await anonymous(guildUrl('/moderation/appeals'), 'GET')).status, 401);
    assert.equal((await anonymous(accept, 'POST', {})).status, 401);
    const session = await admin();
    assert.equal(
      (await session.get(guildUrl('/moderation/appeals?status=maybe')).expect(400)).body.fields.status,
      'Status must be all, open, accepted or denied.',
    );
    assert.equal((await session.post(accept, { reason: 'x'.repeat(513) }).expect(400)).body.fields.reason, 'Reason must be at most 512 characters.');
    assert.equal((await session.post(guildUrl('/moderation/appeals/abc/accept'), {}).expect(400)).body.fields.id, 'ID must be an appeal id.');
    await (await h().signIn(h().demo.plainMemberId)).post(accept, {}).expect(403);
    await (await h().signIn(h().demo.plainMemberId)).get(guildUrl('/moderation/appeals')).expect(403);
    // Delegated edit access to the dashboard, but no Ban Members in Discord.
    const editor = await buildMember(h());
    await buildGrant(h(), { subjectId: editor.userId, level: 'edit' });
    const refused = await (await h().signIn(editor.userId)).post(accept, {}).expect(403);
    assert.equal(refused.body.message, APPEAL_MESSAGES.needsBanMembers);
    assert.ok(isBanned(userId), 'refusals change nothing');

    const listed = AppealsPageSchema.parse((await session.get(guildUrl('/moderation/appeals')).expect(200)).body);
    const entry = listed.entries.find((candidate) => candidate.id === made.id);
    assert.equal(entry?.text, TEXT);
    assert.equal(entry?.caseReason, 'Spam in #general');

    const accepted = AppealSchema.parse((await session.post(accept, { reason: 'Apologised sincerely' }).expect(200)).body);
    assert.equal(accepted.status, 'accepted');
    assert.equal(accepted.decisionReason, 'Apologised sincerely');
    assert.equal(accepted.dmDelivered, true);
    assert.equal(isBanned(userId), false, 'the sandbox ban is lifted');
    assert.match(lastDm(userId), /Your ban appeal in .* was accepted/);
    const unban = await h().product.store.models.ModerationLog.findOne({ where: { guildId: h().guildId, caseNumber: accepted.unbanCaseNumber ?? 0 } });
    assert.equal(unban?.action, 'unban');
    assert.equal(unban?.targetId, userId);
    assert.equal(unban?.reason, `Appeal accepted: Apologised sincerely (appeal #${made.id} of case #${made.caseNumber})`);
    const ban = await h().product.store.models.ModerationLog.findOne({ where: { guildId: h().guildId, caseNumber: made.caseNumber } });
    assert.ok(ban?.liftedAt, 'the ban case is marked lifted');

    assert.equal((await session.post(accept, {}).expect(409)).body.message, 'That appeal was already accepted.');
    const view = MemberAppealViewSchema.parse((await (await h().signIn(userId)).get(appealUrl(userId)).expect(200)).body);
    assert.equal(view.appeal?.status, 'accepted');
    assert.equal(view.notice, APPEAL_MESSAGES.accepted);
  });

  test('an accept and a deny of one appeal at once: one decision, at most one unban', async () => {
    const userId = await bannedMember();
    const made = await appeal(userId);
    const session = await admin();
    const answers = await Promise.all([
      session.post(guildUrl(`/moderation/appeals/${made.id}/accept`), {}),
      session.post(guildUrl(`/moderation/appeals/${made.id}/deny`), { reason: 'No' }),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    const row = await h().product.store.models.ModerationAppeal.findByPk(made.id);
    const unbans = await h().product.store.models.ModerationLog.count({ where: { guildId: h().guildId, targetId: userId, action: 'unban' } });
    assert.equal(unbans, row?.status === 'accepted' ? 1 : 0);
    assert.equal(isBanned(userId), row?.status !== 'accepted');
  });

  test('deny needs a reason, keeps the ban, says the DM did not arrive; the member may appeal again after a week', async () => {
    const userId = await bannedMember();
    const made = await appeal(userId);
    const session = await admin();
    const deny = guildUrl(`/moderation/appeals/${made.id}/deny`);
    assert.equal((await session.post(deny, {}).expect(400)).body.fields.reason, 'Reason is required.');
    assert.equal((await session.post(deny, { reason: '   ' }).expect(400)).body.fields.reason, 'Reason is required.');
    const denied = AppealSchema.parse((await session.post(deny, { reason: 'Third time this month' }).expect(200)).body);
    assert.equal(denied.status, 'denied');
    assert.equal(denied.decisionReason, 'Third time this month');
    assert.equal(denied.dmDelivered, false, 'the member shares no server with the bot');
    assert.ok(isBanned(userId));

    const member = await h().signIn(userId);
    const view = MemberAppealViewSchema.parse((await member.get(appealUrl(userId)).expect(200)).body);
    assert.equal(view.appeal?.status, 'denied');
    assert.equal(view.appeal?.decisionReason, 'Third time this month');
    assert.equal(view.notice, APPEAL_MESSAGES.tooSoon(7));
    const soon = await member.post(appealUrl(userId), { text: TEXT }).expect(429);
    assert.equal(soon.body.message, APPEAL_MESSAGES.tooSoon(7));
    clock.advance(APPEAL_RETRY_MS + 1000);
    const again = AppealSchema.parse((await member.post(appealUrl(userId), { text: TEXT }).expect(200)).body);
    assert.equal(again.status, 'open');
  });

  test('an accept of a ban lifted unseen in Discord is refused and leaves the appeal open; the case learns the ban is lifted; deny closes it', async () => {
    const userId = await bannedMember();
    const made = await appeal(userId);
    // Lifted in Discord by someone the audit log does not name: the case does not know yet.
    h().world.unban(h().guildId, userId);
    const session = await admin();
    const refused = await session.post(guildUrl(`/moderation/appeals/${made.id}/accept`), {}).expect(409);
    assert.equal(refused.body.message, APPEAL_MESSAGES.liftedMeanwhile);
    const row = await h().product.store.models.ModerationAppeal.findByPk(made.id);
    assert.equal(row?.status, 'open');
    assert.equal(row?.decidedById, null);
    assert.equal(await h().product.store.models.ModerationLog.count({ where: { guildId: h().guildId, targetId: userId, action: 'unban' } }), 0);

    const listed = AppealsPageSchema.parse((await session.get(guildUrl('/moderation/appeals')).expect(200)).body);
    assert.equal(listed.entries.find((entry) => entry.id === made.id)?.banInForce, false);
    const lifted = await session.post(guildUrl(`/moderation/appeals/${made.id}/accept`), {}).expect(409);
    assert.equal(lifted.body.message, APPEAL_MESSAGES.liftedMeanwhile);
    await session.post(guildUrl(`/moderation/appeals/${made.id}/deny`), { reason: 'Unbanned already' }).expect(200);
  });

  test('/appeal list, accept and deny: Ban Members, the same decisions', async () => {
    const first = await bannedMember();
    const second = await bannedMember();
    h().world.addMember(h().demo.thirdGuildId, { id: first, username: 'appellant' });
    const one = await appeal(first);
    const two = await appeal(second);
    const { adminUserId, plainMemberId } = h().demo;

    const listed = await h().slash(adminUserId, 'appeal list', {});
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.match(listed.body.content, new RegExp(`#${one.id} · .*case #${one.caseNumber}`));
    assert.match(listed.body.content, new RegExp(`#${two.id} · `));
    assert.equal((await h().slash(plainMemberId, 'appeal list', {})).status, 403, 'Discord keeps the command from members without Ban Members');

    const blank = await h().slash(adminUserId, 'appeal deny', { id: two.id, reason: '   ' });
    assert.match(blank.body.content, /Give a reason to deny an appeal/);

    const accepted = await h().slash(adminUserId, 'appeal accept', { id: one.id, reason: 'Fair enough' });
    assert.match(accepted.body.content, new RegExp(`^Appeal #${one.id} accepted: .* was unbanned \\(case #\\d+\\)\\. They were told by DM\\.$`));
    await waitFor(() => !isBanned(first), 5000, 'the ban to be lifted');
    assert.match(lastDm(first), /was accepted/);

    const denied = await h().slash(adminUserId, 'appeal deny', { id: two.id, reason: 'No' });
    assert.match(denied.body.content, new RegExp(`^Appeal #${two.id} denied; the ban stays\\. They could not be told by DM`));
    assert.ok(isBanned(second));
    const gone = await h().slash(adminUserId, 'appeal accept', { id: 999_999 });
    assert.equal(gone.body.content, APPEAL_MESSAGES.noSuchAppeal);
  });
});
