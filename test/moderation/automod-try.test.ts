// "Try these rules" through the sandbox (issue 24, point 5): members post in a channel, then the
// dashboard's route (the draft's rules) and /automod try (the saved ones) say which messages each
// rule would have caught and what it would have done, with staff spared unless included, and
// nothing happens in Discord or the log. A moderator who cannot read the channel in Discord is
// refused; a bot that cannot read it says so.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { AutomodTryResultSchema, type AutomodTryResult } from '../../src/shared/automod-try';
import { AUTOMOD_DEFAULTS, type AutomodRules } from '../../src/shared/moderation';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const h = useHarness();
const url = () => `/api/servers/${h().guildId}/moderation/automod/try`;

type Overwrite = { id: string; type: 'role' | 'member'; allow?: string[]; deny?: string[] };

/** A new text channel (with overwrites), once the bot has seen it. */
async function buildChannel(overwrites: Overwrite[] = []): Promise<string> {
  const made = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/channels`, {
    name: `try-${Math.random().toString(36).slice(2, 8)}`,
    overwrites,
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  await waitFor(() => h().product.client.channels.cache.has(made.body.id), 5000, 'the bot to see the channel');
  return made.body.id;
}

/** Posts as a member; returns the message id. */
async function post(channelId: string, authorId: string, content: string): Promise<string> {
  const posted = await h().control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId, content });
  assert.equal(posted.status, 201, JSON.stringify(posted.body));
  return posted.body.id;
}

/** The draft: invites warn, repeats time out for 10 minutes, blocked words delete. */
function draft(): AutomodRules {
  const rules = structuredClone(AUTOMOD_DEFAULTS);
  rules.invites = { ...rules.invites, enabled: true, action: 'warn' };
  rules.repeats = { ...rules.repeats, enabled: true, action: 'timeout', duration: '10m', maxRepeats: 2 };
  rules.words = { ...rules.words, enabled: true, words: ['darn'] };
  return rules;
}

const hitsOf = (result: AutomodTryResult) => result.messages.filter((m) => m.hits.length > 0).map((m) => [m.excerpt, m.hits[0]?.rule, m.hits[0]?.what]);
const caseCount = () => h().product.store.models.ModerationLog.count({ where: { guildId: h().guildId } });

describe('try these rules', () => {
  let channelId = '';
  let member = '';
  before(async () => {
    channelId = await buildChannel();
    member = (await buildMember(h(), { username: 'casey' })).userId;
    await post(channelId, member, 'good morning');
    await post(channelId, member, 'join us at discord.gg/abc');
    for (let i = 0; i < 3; i++) await post(channelId, member, 'buy now');
    await post(channelId, h().demo.adminUserId, 'staff invite: discord.gg/staff');
    await post(channelId, member, 'well, darn');
  });

  test('the route: 401 signed out, 400 naming the field, 403 without access or without Read Message History there, then 200', async () => {
    const anonymous = await fetch(`${h().product.url}${url()}`, {
      method: 'POST',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rules: draft(), channelId }),
    });
    assert.equal(anonymous.status, 401);
    const admin = await h().signIn(h().demo.adminUserId);
    const bad = draft();
    bad.caps.maxPercent = 10;
    assert.equal(
      (await admin.post(url(), { rules: bad, channelId }).expect(400)).body.fields['rules.caps.maxPercent'],
      'Excessive capitals rule: most capitals (%) must be between 50 and 100.',
    );
    const timeoutWithout = draft();
    timeoutWithout.repeats.duration = null;
    assert.equal(
      (await admin.post(url(), { rules: timeoutWithout, channelId }).expect(400)).body.fields['rules.repeats.duration'],
      'Repeated messages rule: duration is required for a timeout.',
    );
    assert.equal((await admin.post(url(), { rules: draft(), channelId, limit: 101 }).expect(400)).body.fields.limit, 'Limit must be between 1 and 100.');
    await (await h().signIn(h().demo.plainMemberId)).post(url(), { rules: draft(), channelId }).expect(403);

    // A moderator (Manage Server) who cannot read that channel's history in Discord.
    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const hidden = await buildChannel([{ id: h().demo.roles.moderator, type: 'role', deny: ['ReadMessageHistory'] }]);
    const refused = await (await h().signIn(moderator.userId)).post(url(), { rules: draft(), channelId: hidden }).expect(403);
    assert.match(refused.body.message, /^You need the Read Message History permission in #try-\w+ to try the rules on its messages\.$/);

    const ok = AutomodTryResultSchema.parse((await admin.post(url(), { rules: draft(), channelId }).expect(200)).body);
    assert.equal(ok.scanned, 7);
  });

  test("the draft's rules: which message each rule would have caught and what it would have done, staff spared; nothing is done", async () => {
    const before = h().world.messages.list(channelId).length;
    const cases = await caseCount();
    const admin = await h().signIn(h().demo.adminUserId);
    const result = AutomodTryResultSchema.parse((await admin.post(url(), { rules: draft(), channelId, limit: 50 }).expect(200)).body);
    assert.equal(result.scanned, 7);
    assert.equal(result.messages[0]?.excerpt, 'good morning', 'oldest first');
    assert.equal(result.messages[0]?.authorName, 'casey');
    assert.deepEqual(hitsOf(result), [
      ['join us at discord.gg/abc', 'invites', 'Delete the message and warn the author'],
      ['buy now', 'repeats', 'Delete the message and time the author out for 10 minutes'],
      ['well, darn', 'words', 'Delete the message'],
    ]);

    const withStaff = AutomodTryResultSchema.parse((await admin.post(url(), { rules: draft(), includeStaff: true, channelId }).expect(200)).body);
    assert.deepEqual(
      hitsOf(withStaff).map(([excerpt]) => excerpt),
      ['join us at discord.gg/abc', 'buy now', 'staff invite: discord.gg/staff', 'well, darn'],
    );

    const lastThree = AutomodTryResultSchema.parse((await admin.post(url(), { rules: draft(), channelId, limit: 3 }).expect(200)).body);
    assert.equal(lastThree.scanned, 3);

    assert.equal(h().world.messages.list(channelId).length, before, 'nothing was deleted');
    assert.equal(await caseCount(), cases, 'no case was recorded');
    assert.equal(h().world.guilds.get(h().guildId)?.members.get(member)?.communicationDisabledUntil ?? null, null, 'nobody was timed out');
  });

  test('/automod try replays the saved rules (in the channel given, or this one) and answers privately with a summary', async () => {
    const admin = await h().signIn(h().demo.adminUserId);
    await admin.put(`/api/servers/${h().guildId}/settings`, { automodRules: draft() }).expect(200);
    const before = h().world.messages.list(channelId).length;
    const reply = await h().slash(h().demo.adminUserId, 'automod try', { channel: channelId, count: 25 });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.ephemeral, true);
    const lines = reply.body.content.split('\n');
    assert.match(lines[0] ?? '', /^3 of the last 7 messages in #try-\w+ would have been acted on:$/);
    assert.equal(lines[1], '• casey: “join us at discord.gg/abc” → Invite links: delete the message and warn the author');
    assert.match(
      reply.body.content,
      /Nothing was deleted or recorded: this was only a try\.\nAuto moderation is off in this server: these rules do not run until it is turned on\.$/,
    );
    const here = await h().slash(h().demo.adminUserId, 'automod try', {}, channelId);
    assert.match(here.body.content, /^3 of the last 7 messages in #try-\w+ would have been acted on:/, 'the channel it is run in');
    assert.equal(h().world.messages.list(channelId).length, before, 'nothing was deleted');

    const moderator = await buildMember(h(), { roleIds: [h().demo.roles.moderator] });
    const hidden = await buildChannel([{ id: h().demo.roles.moderator, type: 'role', deny: ['ReadMessageHistory'] }]);
    const refused = await h().slash(moderator.userId, 'automod try', { channel: hidden });
    assert.match(refused.body.content, /You need the Read Message History permission in #try-\w+ to try the rules on its messages\./);
  });

  test('a bot that cannot read the channel says what to fix', async () => {
    const blind = await buildChannel([{ id: h().demo.roles.bot, type: 'role', deny: ['ReadMessageHistory'] }]);
    const admin = await h().signIn(h().demo.adminUserId);
    const refused = await admin.post(url(), { rules: draft(), channelId: blind }).expect(422);
    assert.match(refused.body.message, /needs the Read Message History permission in #try-\w+ to read its messages\./);
  });
});
