// Auto moderation through the sandbox: with the Bot Settings switch on, each rule catches a message
// that breaks it (deleted, and the rule's action recorded as a case by the bot with the rule's name
// as reason), leaves a clean message alone, and spares exempt roles and channels; staff (the owner,
// Administrator, Manage Server) are spared unless the guild's setting includes them.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AUTOMOD_DEFAULTS, type AutomodRules } from '../../src/shared/moderation';
import { SettingsViewSchema } from '../../src/shared/settings';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const h = useHarness();
const general = () => h().demo.channels.general;

/** Posts as the member; returns the message id. */
async function post(userId: string, content: string, channelId = general()): Promise<string> {
  const { status, body } = await h().control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId: userId, content });
  assert.ok(status < 300, JSON.stringify(body));
  return body.id;
}
const exists = (messageId: string) => h().world.messages.get(messageId) !== undefined;
const deleted = (messageId: string) => waitFor(() => !exists(messageId), 5000, 'the message to be deleted');
/**
 * Asserts the message was judged and kept. The barrier: the bot judges messages in order, so once a
 * later invite posted by another (plain) member is deleted, the message before it has been judged.
 */
const kept = async (messageId: string) => {
  const marker = await buildMember(h());
  await deleted(await post(marker.userId, 'barrier: discord.gg/barrier'));
  assert.ok(exists(messageId), 'the message is kept');
};
const casesOf = (userId: string) =>
  h().product.store.models.ModerationLog.findAll({ where: { guildId: h().guildId, targetId: userId }, order: [['caseNumber', 'ASC']] });
const caseOf = (userId: string) => waitFor(async () => (await casesOf(userId))[0], 5000, 'the case');

describe('auto moderation', () => {
  before(async () => {
    const on = { enabled: true, exemptRoleIds: [h().demo.roles.verified], exemptChannelIds: [h().demo.channels.announcements] };
    const rules: AutomodRules = {
      invites: { ...AUTOMOD_DEFAULTS.invites, ...on },
      links: { ...AUTOMOD_DEFAULTS.links, ...on, allowedDomains: ['example.com'] },
      mentions: { ...AUTOMOD_DEFAULTS.mentions, ...on, maxMentions: 3, action: 'warn' },
      repeats: { ...AUTOMOD_DEFAULTS.repeats, ...on, maxRepeats: 3 },
      rate: { ...AUTOMOD_DEFAULTS.rate, ...on, maxMessages: 4, perSeconds: 10 },
      words: { ...AUTOMOD_DEFAULTS.words, ...on, words: ['frobnicate'], action: 'timeout', duration: '10m' },
      caps: { ...AUTOMOD_DEFAULTS.caps, ...on },
    };
    const session = await h().signIn(h().demo.adminUserId);
    const saved = await session.put(`/api/servers/${h().guildId}/settings`, { automodEnabled: true, automodRules: rules });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('invite links are deleted as a case; allowed domains and clean text are kept', async () => {
    const member = await buildMember(h());
    await deleted(await post(member.userId, 'join us at discord.gg/abcdef'));
    const row = await caseOf(member.userId);
    assert.deepEqual([row.action, row.reason, row.source, row.moderatorId], ['delete', 'Invite links', 'automatic', h().world.botUserId]);
    await kept(await post(member.userId, 'docs at https://docs.example.com/start'));
    await deleted(await post(member.userId, 'look at https://example.com.evil.io/x'));
  });

  test('mass mentions: the limit of 3 allows 3 mentions; 4 warn the member', async () => {
    const member = await buildMember(h());
    const others = await Promise.all([buildMember(h()), buildMember(h()), buildMember(h()), buildMember(h())]);
    const mention = (count: number) =>
      others
        .slice(0, count)
        .map((other) => `<@${other.userId}>`)
        .join(' ');
    const allowed = await post(member.userId, mention(3));
    await deleted(await post(member.userId, mention(4)));
    // The bot reads messages in order: the one before the deleted one was judged first, and kept.
    assert.ok(exists(allowed), 'three mentions are allowed');
    const row = await caseOf(member.userId);
    assert.deepEqual([row.action, row.reason], ['warn', 'Mass mentions']);
  });

  test('the fourth identical message (a limit of 3), and the fifth message within ten seconds (a limit of 4), are deleted', async () => {
    const repeater = await buildMember(h());
    const allowed = [await post(repeater.userId, 'same thing'), await post(repeater.userId, 'Same   thing'), await post(repeater.userId, 'same thing ')];
    await deleted(await post(repeater.userId, 'SAME thing'));
    assert.deepEqual(allowed.map(exists), [true, true, true], 'three identical messages are allowed');
    assert.equal((await caseOf(repeater.userId)).reason, 'Repeated messages');

    const flooder = await buildMember(h());
    for (let i = 1; i <= 4; i++) await post(flooder.userId, `update ${i}`);
    await deleted(await post(flooder.userId, 'update 5'));
    assert.equal((await caseOf(flooder.userId)).reason, 'Message rate');
  });

  test('a blocked word times the member out; shouting is deleted', async () => {
    const member = await buildMember(h());
    await deleted(await post(member.userId, 'please do not Frobnicate the servers'));
    const row = await caseOf(member.userId);
    assert.deepEqual([row.action, row.duration, row.reason], ['timeout', '10m', 'Blocked words']);
    assert.ok(h().world.guilds.get(h().guildId)?.members.get(member.userId)?.communicationDisabledUntil);

    const shouter = await buildMember(h());
    await deleted(await post(shouter.userId, 'WHY IS NOBODY ANSWERING ME'));
    assert.equal((await caseOf(shouter.userId)).reason, 'Excessive capitals');
    await kept(await post(shouter.userId, 'ok, I read the FAQ now'));
  });

  test('a member with an exempt role is spared (exempt channels: the engine tests)', async () => {
    const verified = await buildMember(h(), { roleIds: [h().demo.roles.verified] });
    await kept(await post(verified.userId, 'join us at discord.gg/abcdef'));
    assert.equal((await casesOf(verified.userId)).length, 0);
  });
});

describe('auto moderation spares staff unless the guild includes them', () => {
  const url = () => `/api/servers/${h().guildId}/settings`;
  /** Invites on with no exempt roles or channels; every other rule off. */
  const invitesOnly = (): AutomodRules => ({ ...AUTOMOD_DEFAULTS, invites: { ...AUTOMOD_DEFAULTS.invites, enabled: true } });

  before(async () => {
    const session = await h().signIn(h().demo.adminUserId);
    const saved = await session.put(url(), { automodEnabled: true, automodRules: invitesOnly() });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('a guild stored before the setting reads it as off: the stored document does not hold it', async () => {
    const row = await h().product.store.models.GuildSettings.findByPk(h().guildId);
    const values = (row?.data as { values?: Record<string, unknown> } | undefined)?.values ?? {};
    assert.equal(values.automodEnabled, true, 'the guild has stored settings');
    assert.equal('automodIncludeStaff' in values, false);
    const session = await h().signIn(h().demo.adminUserId);
    assert.equal(SettingsViewSchema.parse((await session.get(url()).expect(200)).body).automodIncludeStaff, false);
  });

  test('PUT automodIncludeStaff: 401 without a session, 400 naming the field, 403 for a member, then 200', async () => {
    const anonymous = await fetch(`${h().product.url}${url()}`, {
      method: 'PUT',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ automodIncludeStaff: true }),
    });
    assert.equal(anonymous.status, 401);
    const admin = await h().signIn(h().demo.adminUserId);
    for (const bad of ['yes', 1, null]) {
      const refused = await admin.put(url(), { automodIncludeStaff: bad }).expect(400);
      assert.equal(refused.body.fields.automodIncludeStaff, 'Automod for staff must be true or false.', JSON.stringify(bad));
    }
    assert.equal((await h().product.services.settings.get(h().guildId)).automodIncludeStaff, false, 'a refused value changes nothing');
    const member = await h().signIn(h().demo.plainMemberId);
    await member.put(url(), { automodIncludeStaff: true }).expect(403);
    assert.equal((await h().product.services.settings.get(h().guildId)).automodIncludeStaff, false);
    const on = SettingsViewSchema.parse((await admin.put(url(), { automodIncludeStaff: true }).expect(200)).body);
    assert.equal(on.automodIncludeStaff, true);
    const off = SettingsViewSchema.parse((await admin.put(url(), { automodIncludeStaff: false }).expect(200)).body);
    assert.equal(off.automodIncludeStaff, false);
  });

  test('by default an Administrator, a member with Manage Server and the owner post invites untouched, with no case; a plain member does not', async () => {
    const administrator = await buildMember(h(), { roleIds: [h().demo.roles.admin] });
    const manager = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const owner = h().demo.ownerUserId;
    const staffPosts = [
      await post(administrator.userId, 'join us at discord.gg/staffonly'),
      await post(manager.userId, 'join us at discord.gg/staffonly'),
      await post(owner, 'join us at discord.gg/staffonly'),
    ];
    // The barrier: the bot reads messages in order, so once the plain member's later invite is
    // deleted with its case, the staff's earlier ones have been judged.
    const plain = await buildMember(h());
    await deleted(await post(plain.userId, 'join us at discord.gg/staffonly'));
    assert.equal((await caseOf(plain.userId)).reason, 'Invite links');
    assert.deepEqual(staffPosts.map(exists), [true, true, true], 'the staff messages are kept');
    for (const userId of [administrator.userId, manager.userId, owner]) assert.equal((await casesOf(userId)).length, 0, `no case against ${userId}`);
  });

  test("with staff included, an Administrator's invite is deleted with a case, and so is a plain member's", async () => {
    const session = await h().signIn(h().demo.adminUserId);
    await session.put(url(), { automodIncludeStaff: true }).expect(200);
    const administrator = await buildMember(h(), { roleIds: [h().demo.roles.admin] });
    await deleted(await post(administrator.userId, 'join us at discord.gg/staffonly'));
    const row = await caseOf(administrator.userId);
    assert.deepEqual([row.action, row.reason, row.source], ['delete', 'Invite links', 'automatic']);
    const plain = await buildMember(h());
    await deleted(await post(plain.userId, 'join us at discord.gg/staffonly'));
    assert.equal((await caseOf(plain.userId)).reason, 'Invite links');
  });
});
