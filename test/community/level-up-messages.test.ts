// Level-up messages and XP rules (issue 25, points 3 and 4), over HTTP and through the sandbox:
// the settings refuse an unknown placeholder or a multiplier out of range by field; a member in a
// no-XP channel (text or voice) earns nothing, one with a 2× role earns double; a level-up posts the admin's
// template where they chose, pinging only the member, or DMs it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/core/clock';
import { levelingState } from '../../src/features/leveling/state';
import { LEVEL_UP_MESSAGE_DEFAULTS } from '../../src/shared/level-up-messages';
import { SettingsViewSchema } from '../../src/shared/settings';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const clock = new ManualClock(Date.UTC(2026, 10, 4, 12)); // a Wednesday: no weekend multiplier
const h = useHarness({}, { clock });

async function admin() {
  return { session: await h().signIn(h().demo.adminUserId), url: `/api/servers/${h().guildId}/settings` };
}
/** The member's row after the next flush. */
async function levelsOf(userId: string) {
  await levelingState.of(h().product.services).accruals.flush();
  return h().product.store.models.UserLevel.findOne({ where: { guildId: h().guildId, userId } });
}
const post = (userId: string, content: string, channelId = h().demo.channels.general) =>
  h().control('POST', `/channels/${channelId}/messages`, { authorId: userId, content });
/** Posts one message and waits until the bot has counted it. */
async function postAndSee(userId: string, sent: number, channelId?: string) {
  await post(userId, `message ${sent}`, channelId);
  await waitFor(async () => (await levelsOf(userId))?.messagesCount === sent, 5000, 'the message to be counted');
}
/** A role made in the sandbox, seen by the bot. */
async function makeRole(name: string): Promise<string> {
  const role = (await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name })).body;
  await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(role.id), 5000, 'the bot to see the role');
  return role.id;
}
/** Posts until the member reaches level 2 (one message at a time, 50-200 XP each at 10×). */
async function climbToLevel2(userId: string) {
  for (let sent = 1; ((await levelsOf(userId))?.level ?? 1) < 2; sent += 1) await postAndSee(userId, sent);
}

describe('level-up messages and XP rules: the settings', () => {
  test('PUT in order: 401 without a session, 400 naming the template for an unknown placeholder, 403 for a member, 200', async () => {
    const { session, url } = await admin();
    const anonymous = await fetch(`${h().product.url}${url}`, {
      method: 'PUT',
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(anonymous.status, 401);
    const before = (await session.get(url)).body as { levelUpMessage: string };
    const bad = await session.put(url, { levelUpMessage: 'GG {user}, you are {rank} now' }).expect(400);
    assert.equal(
      bad.body.fields.levelUpMessage,
      'Level-up message uses {rank}, which is not a placeholder; use {user}, {level}, {server}, {reward} or {bonus}.',
    );
    assert.equal((await session.get(url)).body.levelUpMessage, before.levelUpMessage, 'bad input changes nothing');
    const member = await h().signIn(h().demo.plainMemberId);
    await member.put(url, { levelUpMessage: 'GG {user}' }).expect(403);
    const ok = SettingsViewSchema.parse(
      (await session.put(url, { levelUpMessage: 'GG {user}, level {level} in {server}! {reward}', levelUpWhen: 'nth', levelUpEveryN: 5 }).expect(200)).body,
    );
    assert.equal(ok.levelUpMessage, 'GG {user}, level {level} in {server}! {reward}');
    assert.equal(ok.levelUpWhen, 'nth');
  });

  test('400 for a multiplier out of range, a fixed destination without its channel, or an id not of this server', async () => {
    const { session, url } = await admin();
    const range = await session.put(url, { xpRoleMultipliers: [{ id: h().demo.roles.member, multiplier: 6 }] }).expect(400);
    assert.equal(range.body.fields['xpRoleMultipliers.0.multiplier'], 'Role multiplier #1: multiplier must be between 0.1 and 5.');
    const low = await session.put(url, { xpChannelMultipliers: [{ id: h().demo.channels.general, multiplier: 0.05 }] }).expect(400);
    assert.equal(low.body.fields['xpChannelMultipliers.0.multiplier'], 'Channel multiplier #1: multiplier must be between 0.1 and 5.');
    const noChannel = await session.put(url, { levelUpAnnouncements: true, levelUpDestination: 'channel', levelUpChannelId: null }).expect(400);
    assert.equal(noChannel.body.fields.levelUpChannelId, 'Please pick the channel level-ups are announced in.');
    const stranger = await session.put(url, { xpExcludedChannelIds: ['123456789012345678'] }).expect(400);
    assert.equal(stranger.body.fields.xpExcludedChannelIds, 'The list of no-XP channels names a channel that is not in this server.');
    const view = SettingsViewSchema.parse((await session.get(url)).body);
    assert.deepEqual([view.xpRoleMultipliers, view.xpExcludedChannelIds, view.levelUpDestination], [[], [], 'levelled']);
  });
});

describe('level-up messages and XP rules: settings stored before them', () => {
  test('load as before: the new fields take their defaults and announcements stay off (nowhere)', async () => {
    const { session, url } = await admin();
    await session.put(url, { xpCooldown: 45 }).expect(200);
    const row = await h().product.store.models.GuildSettings.findByPk(h().guildId);
    assert.ok(row);
    const document = row.data as unknown as Record<string, unknown>;
    // As a guild saved them before issue 25: only the old keys.
    await row.update({ data: { ...document, values: { levelUpAnnouncements: false, xpCooldown: 45 } } as typeof row.data });
    h().product.services.settings.invalidate(h().guildId);
    const view = SettingsViewSchema.parse((await session.get(url).expect(200)).body);
    assert.deepEqual(
      [view.levelUpAnnouncements, view.levelUpDestination, view.levelUpWhen, view.levelUpMessage, view.xpRoleMultipliers, view.xpCooldown],
      [false, 'levelled', 'every', LEVEL_UP_MESSAGE_DEFAULTS.levelUpMessage, [], 45],
    );
    await session.put(url, { levelUpAnnouncements: true, xpCooldown: 60 }).expect(200);
  });
});

describe('level-up messages and XP rules: through the sandbox', () => {
  test('a member posting in a no-XP channel earns nothing there, and earns in another', async () => {
    const { session, url } = await admin();
    await session.put(url, { xpExcludedChannelIds: [h().demo.channels.welcome], xpCooldown: 0, textMultiplier: 1 }).expect(200);
    const { userId } = await buildMember(h());
    await postAndSee(userId, 1, h().demo.channels.welcome);
    await postAndSee(userId, 2, h().demo.channels.welcome);
    assert.equal((await levelsOf(userId))?.totalXp, 0, 'no XP in the no-XP channel');
    await postAndSee(userId, 3);
    const xp = (await levelsOf(userId))?.totalXp ?? 0;
    assert.ok(xp >= 5 && xp <= 20, `XP in #general ${xp}`);
    await session.put(url, { xpExcludedChannelIds: [], xpCooldown: 60 }).expect(200);
  });

  test('a member with a 2× role earns double; one with a no-XP role earns nothing', async () => {
    const [double, silent] = [await makeRole('Double XP'), await makeRole('No XP')];
    const { session, url } = await admin();
    await session.put(url, { xpRoleMultipliers: [{ id: double, multiplier: 2 }], xpExcludedRoleIds: [silent], xpCooldown: 0, textMultiplier: 1 }).expect(200);
    const boosted = await buildMember(h(), { roleIds: [double] });
    const muted = await buildMember(h(), { roleIds: [silent] });
    const gains: number[] = [];
    for (let sent = 1; sent <= 5; sent += 1) {
      const before = (await levelsOf(boosted.userId))?.totalXp ?? 0;
      await postAndSee(boosted.userId, sent);
      gains.push(((await levelsOf(boosted.userId))?.totalXp ?? 0) - before);
    }
    // 5-20 XP doubled: 10-40, always even.
    for (const gain of gains) assert.ok(gain >= 10 && gain <= 40 && gain % 2 === 0, `gains ${gains.join(', ')}`);
    await postAndSee(muted.userId, 1);
    assert.equal((await levelsOf(muted.userId))?.totalXp, 0);
    await session.put(url, { xpRoleMultipliers: [], xpExcludedRoleIds: [], xpCooldown: 60 }).expect(200);
  });

  test('voice: a no-XP voice channel earns nothing; the same minutes elsewhere do', async () => {
    const { session, url } = await admin();
    const voice = h().demo.channels.voice;
    await session.put(url, { xpExcludedChannelIds: [voice] }).expect(200);
    const [a, b] = [await buildMember(h()), await buildMember(h())];
    for (const member of [a, b]) await h().control('POST', `/guilds/${h().guildId}/voice`, { userId: member.userId, channelId: voice });
    await waitFor(
      () => h().product.client.guilds.cache.get(h().guildId)?.voiceStates.cache.get(b.userId)?.channelId,
      5000,
      'the voice states to reach the bot',
    );
    const { voiceXp } = levelingState.of(h().product.services);
    const minutes = async () => {
      await voiceXp.tick();
      clock.advance(2 * 60_000 + 5_000);
      await voiceXp.tick();
      return Promise.all([a, b].map(async (member) => (await levelsOf(member.userId))?.totalXp ?? 0));
    };
    assert.deepEqual(await minutes(), [0, 0], 'no XP in the no-XP voice channel');
    await session.put(url, { xpExcludedChannelIds: [] }).expect(200);
    const [xpA = 0, xpB = 0] = await minutes();
    assert.ok(xpA > 0 && xpB > 0, `after the rule is lifted: ${xpA}, ${xpB}`);
    for (const member of [a, b]) await h().control('POST', `/guilds/${h().guildId}/voice`, { userId: member.userId, channelId: null });
  });

  test('a level-up posts the template in the fixed channel, pinging only the member whatever the template says', async () => {
    const { session, url } = await admin();
    const channelId = h().demo.channels.announcements;
    await session
      .put(url, {
        levelUpAnnouncements: true,
        levelUpDestination: 'channel',
        levelUpChannelId: channelId,
        levelUpWhen: 'every',
        levelUpMessage: `GG {user}! Level {level} in {server} @everyone <@&${h().demo.roles.member}> <@${h().demo.adminUserId}> {bonus}`,
        xpCooldown: 0,
        textMultiplier: 10,
      })
      .expect(200);
    const { userId } = await buildMember(h());
    const announced = h().waitForMessage(channelId, (message) => message.bot && message.content.startsWith(`GG <@${userId}>`), { timeoutMs: 15_000 });
    await climbToLevel2(userId);
    const message = await announced;
    assert.match(message.content, /^GG <@\d+>! Level 2 in .+ @everyone <@&\d+> <@\d+> \+100 coins$/);
    assert.deepEqual(message.pinged, { users: [userId], roles: [], everyone: false });
    await session.put(url, { levelUpDestination: 'levelled', levelUpChannelId: null, xpCooldown: 60, textMultiplier: 1 }).expect(200);
  });

  test('only at levels with a reward: level 2 passes quietly, level 3 names its reward', async () => {
    const { session, url } = await admin();
    const channelId = h().demo.channels.announcements;
    const role = await makeRole('Level Three');
    await session.post(`/api/servers/${h().guildId}/leveling/rewards`, { level: 3, roleId: role }).expect(200);
    await session
      .put(url, {
        levelUpAnnouncements: true,
        levelUpDestination: 'channel',
        levelUpChannelId: channelId,
        levelUpWhen: 'rewards',
        levelUpMessage: '{user} reached {level} and earned {reward}',
        xpCooldown: 0,
        textMultiplier: 10,
      })
      .expect(200);
    const { userId } = await buildMember(h());
    const announced = h().waitForMessage(channelId, (message) => message.bot && message.content.startsWith(`<@${userId}>`), { timeoutMs: 20_000 });
    for (let sent = 1; ((await levelsOf(userId))?.level ?? 1) < 3; sent += 1) await postAndSee(userId, sent);
    const message = await announced;
    assert.equal(message.content, `<@${userId}> reached 3 and earned @Level Three`);
    const posted = (await h().control<{ content: string }[]>('GET', `/channels/${channelId}/messages`)).body;
    assert.equal(posted.filter((m) => m.content.startsWith(`<@${userId}>`)).length, 1, 'level 2 was not announced');
    await session.put(url, { levelUpWhen: 'every', levelUpDestination: 'levelled', levelUpChannelId: null, xpCooldown: 60, textMultiplier: 1 }).expect(200);
  });

  test('in DM mode the member gets the message in their DMs', async () => {
    const { session, url } = await admin();
    await session
      .put(url, {
        levelUpAnnouncements: true,
        levelUpDestination: 'dm',
        levelUpMessage: 'You reached level {level} in {server}, {user}!',
        xpCooldown: 0,
        textMultiplier: 10,
      })
      .expect(200);
    const { userId } = await buildMember(h());
    await climbToLevel2(userId);
    await waitFor(
      async () => (await h().control<{ content: string }[]>('GET', `/users/${userId}/dms`)).body.some((dm) => dm.content.startsWith('You reached level 2 in ')),
      5000,
      'the level-up DM',
    );
    await session.put(url, { levelUpDestination: 'levelled', xpCooldown: 60, textMultiplier: 1 }).expect(200);
  });
});
