// Reaction roles through the sandbox: the add form's checks (all fields, the message fetched
// from Discord, the emoji, the role), the bot's own reaction, the four modes, a message deleted in
// Discord deactivating its entries, reactions added while the bot was offline honoured after a
// restart, counted stats, and deleting an entry taking the bot's reaction off.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { emojiKey, parseEmoji, ReactionRoleSchema, ReactionRoleStatsSchema, type ReactionRoleView } from '../../src/shared/reaction-roles';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { useHarness } from '../helpers/harness';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

describe('emoji input', () => {
  test('unicode emojis, custom emoji mentions and name:id are accepted; text, two emojis and junk are not', () => {
    assert.deepEqual(parseEmoji('👍'), { kind: 'unicode', name: '👍' });
    assert.deepEqual(parseEmoji('👍🏽'), { kind: 'unicode', name: '👍🏽' });
    assert.deepEqual(parseEmoji('<:sandbox_star:123456789012345678>'), { kind: 'custom', name: 'sandbox_star', id: '123456789012345678', animated: false });
    assert.deepEqual(parseEmoji('<a:party_parrot:123456789012345678>'), { kind: 'custom', name: 'party_parrot', id: '123456789012345678', animated: true });
    assert.equal(emojiKey(parseEmoji('sandbox_star:123456789012345678')!), 'sandbox_star:123456789012345678');
    for (const bad of ['thumbsup', '👍👍', ':smile:', '<:x:12>', '', 'a👍']) assert.equal(parseEmoji(bad), null, bad);
  });
});

const h = useHarness();

describe('reaction roles', () => {
  const base = () => `/api/servers/${h().guildId}/reaction-roles`;
  const admin = () => h().signIn(h().demo.adminUserId);
  const roleIds = (userId: string) => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds ?? [];
  const react = (channelId: string, messageId: string, emoji: string, userId: string, method: 'PUT' | 'DELETE' = 'PUT') =>
    h().control(method, `/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}/${userId}`);
  let channelId = '';
  const messageIds: string[] = [];
  const colours: Record<string, string> = {};

  before(async () => {
    channelId = h().demo.channels.general;
    for (let i = 0; i < 4; i += 1)
      messageIds.push(
        (await h().control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId: h().demo.adminUserId, content: `Pick your roles ${i}` })).body
          .id,
      );
    for (const name of ['Red', 'Blue', 'Green']) {
      const role = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/roles`, { name });
      colours[name] = role.body.id;
    }
    await waitFor(
      () => Object.values(colours).every((id) => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.has(id)),
      5000,
      'the roles to reach the bot',
    );
  });

  test('an incomplete or wrong form is refused naming each field; nothing is stored', async () => {
    const session = await admin();
    const empty = await session.post(base(), { messageId: '', channelId: '', emoji: '', roleId: '' });
    assert.equal(empty.status, 400);
    assert.deepEqual(Object.keys(empty.body.fields).sort(), ['channelId', 'emoji', 'messageId', 'roleId']);
    const wrongMessage = await session.post(base(), { messageId: h().demo.channels.welcome, channelId, emoji: '👍', roleId: colours.Red });
    assert.equal(wrongMessage.status, 400);
    assert.match(wrongMessage.body.fields.messageId, /is not a message of #general/);
    const high = await session.post(base(), { messageId: messageIds[0], channelId, emoji: '👍', roleId: h().demo.roles.aboveBot });
    assert.equal(high.status, 400);
    assert.match(high.body.fields.roleId, /@Senior Staff is above AwesomeBot's highest role/);
    const foreign = await session.post(base(), { messageId: messageIds[0], channelId, emoji: '<:elsewhere:123456789012345678>', roleId: colours.Red });
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.fields.emoji, /is not an emoji of this server/);
    const notEmoji = await session.post(base(), { messageId: messageIds[0], channelId, emoji: 'thumbs', roleId: colours.Red });
    assert.equal(notEmoji.status, 400);
    assert.ok(notEmoji.body.fields.emoji);
    assert.deepEqual((await session.get(base()).expect(200)).body, []);
  });

  test('normal: the bot reacts; a member reacting gets the role, unreacting loses it; a custom emoji works by id', async () => {
    const session = await admin();
    const star = [...h().world.requireGuild(h().guildId).emojis.values()].find((emoji) => emoji.name === 'sandbox_star');
    assert.ok(star);
    const added = await session.post(base(), { messageId: messageIds[0], channelId, emoji: '🔴', roleId: colours.Red }).expect(200);
    const custom = await session.post(base(), { messageId: messageIds[0], channelId, emoji: `<:sandbox_star:${star.id}>`, roleId: colours.Blue }).expect(200);
    const entry = ReactionRoleSchema.parse(added.body);
    assert.equal(entry.mode, 'normal');
    assert.equal(ReactionRoleSchema.parse(custom.body).emoji, `sandbox_star:${star.id}`);
    const message = (await h().messages(channelId)).find((row) => row.id === messageIds[0]);
    assert.deepEqual(
      message?.reactions.map((reaction) => [reaction.emoji, reaction.userIds.includes(h().world.botUserId)]),
      [
        ['🔴', true],
        [`sandbox_star:${star.id}`, true],
      ],
    );

    const { userId } = await buildMember(h());
    await react(channelId, messageIds[0]!, '🔴', userId);
    await waitFor(() => roleIds(userId).includes(colours.Red!), 5000, 'the red role');
    await react(channelId, messageIds[0]!, `sandbox_star:${star.id}`, userId);
    await waitFor(() => roleIds(userId).includes(colours.Blue!), 5000, 'the blue role');
    await react(channelId, messageIds[0]!, '🔴', userId, 'DELETE');
    await waitFor(() => !roleIds(userId).includes(colours.Red!), 5000, 'the red role to go');
    assert.ok(roleIds(userId).includes(colours.Blue!));
  });

  test('the same emoji twice on a message is a conflict; 21 roles on one message are refused', async () => {
    const session = await admin();
    const again = await session.post(base(), { messageId: messageIds[0], channelId, emoji: '🔴', roleId: colours.Green });
    assert.equal(again.status, 409);
    assert.equal(again.body.fields.emoji, '🔴 already gives a role on this message.');

    // Fill a fresh message up to the limit straight in the store, then ask for one more.
    const full = (await h().control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId: h().demo.adminUserId, content: 'So many roles' }))
      .body.id;
    const emojis = ['😀', '😁', '😂', '🤣', '😃', '😄', '😅', '😆', '😉', '😊', '😋', '😎', '😍', '😘', '🥰', '😗', '😙', '🥲', '😚', '🙂'];
    const { ReactionRole } = h().product.store.models;
    for (const emoji of emojis)
      await ReactionRole.create({
        guildId: h().guildId,
        messageId: full,
        channelId,
        emoji,
        emojiId: null,
        roleId: colours.Green!,
        roleName: null,
        inactiveReason: null,
        createdBy: null,
        createdAt: new Date(),
      });
    const tooMany = await session.post(base(), { messageId: full, channelId, emoji: '🤗', roleId: colours.Green });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.fields.messageId, /already hands out 20 roles/);
    await ReactionRole.destroy({ where: { messageId: full } });
  });

  test('unique: a second reaction swaps the role and removes the first reaction', async () => {
    const session = await admin();
    const red = ReactionRoleSchema.parse(
      (await session.post(base(), { messageId: messageIds[1], channelId, emoji: '🟥', roleId: colours.Red, mode: 'unique' }).expect(200)).body,
    );
    await session.post(base(), { messageId: messageIds[1], channelId, emoji: '🟦', roleId: colours.Blue }).expect(200);
    assert.equal(red.mode, 'unique');
    const list = ReactionRoleSchema.array()
      .parse((await session.get(base())).body)
      .filter((row) => row.messageId === messageIds[1]);
    assert.deepEqual(
      list.map((row) => row.mode),
      ['unique', 'unique'],
      "the mode is the message's",
    );
    const { userId } = await buildMember(h());
    await react(channelId, messageIds[1]!, '🟥', userId);
    await waitFor(() => roleIds(userId).includes(colours.Red!), 5000, 'the red role');
    await react(channelId, messageIds[1]!, '🟦', userId);
    await waitFor(() => roleIds(userId).includes(colours.Blue!) && !roleIds(userId).includes(colours.Red!), 10_000, 'the swap');
    await waitFor(
      async () =>
        !(await h().messages(channelId))
          .find((row) => row.id === messageIds[1])
          ?.reactions.find((reaction) => reaction.emoji === '🟥')
          ?.userIds.includes(userId),
      10_000,
      'the red reaction to be removed',
    );
  });

  test('verify keeps the role on unreact; drop takes it away on react; PATCH switches the mode', async () => {
    const session = await admin();
    const entry = ReactionRoleSchema.parse(
      (await session.post(base(), { messageId: messageIds[2], channelId, emoji: '✔️', roleId: colours.Green, mode: 'verify' }).expect(200)).body,
    );
    const { userId } = await buildMember(h());
    await react(channelId, messageIds[2]!, '✔️', userId);
    await waitFor(() => roleIds(userId).includes(colours.Green!), 5000, 'the green role');
    await react(channelId, messageIds[2]!, '✔️', userId, 'DELETE');
    // The barrier: another member's ✔️ after the unreact, handled after it, gives them the role.
    const marker = await buildMember(h());
    await react(channelId, messageIds[2]!, '✔️', marker.userId);
    await waitFor(() => roleIds(marker.userId).includes(colours.Green!), 5000, "the later reaction's role");
    assert.ok(roleIds(userId).includes(colours.Green!), 'verify keeps it');

    const dropped = ReactionRoleSchema.parse((await session.patch(`${base()}/${entry.id}`, { mode: 'drop' }).expect(200)).body);
    assert.equal(dropped.mode, 'drop');
    await react(channelId, messageIds[2]!, '✔️', userId);
    await waitFor(() => !roleIds(userId).includes(colours.Green!), 5000, 'drop takes it');
    const off = ReactionRoleSchema.parse((await session.patch(`${base()}/${entry.id}`, { isActive: false }).expect(200)).body);
    assert.equal(off.isActive, false);
    const nothing = await session.patch(`${base()}/${entry.id}`, {});
    assert.equal(nothing.status, 400);
  });

  test('a message deleted in Discord deactivates its entries with the reason, and diagnostics say so', async () => {
    const session = await admin();
    await session.post(base(), { messageId: messageIds[3], channelId, emoji: '🎮', roleId: colours.Red }).expect(200);
    await h().control('DELETE', `/channels/${channelId}/messages/${messageIds[3]}`);
    const entry = await waitFor(
      async () =>
        ReactionRoleSchema.array()
          .parse((await session.get(base())).body)
          .find((row) => row.messageId === messageIds[3] && !row.isActive),
      5000,
      'the entry to stop',
    );
    assert.equal(entry.inactiveReason, 'The message was deleted in Discord.');
    const diagnostics = DiagnosticsSchema.parse((await session.get(`/api/servers/${h().guildId}/diagnostics?feature=reactionRoles`)).body);
    assert.ok(diagnostics.items.some((item) => item.subject === `reactionRole:${entry.id}` && /message was deleted/.test(item.problem)));
    const back = await session.patch(`${base()}/${entry.id}`, { isActive: true });
    assert.equal(back.status, 400, 'cannot come back without its message');
  });

  test('stats count what the bot did in the last 30 days', async () => {
    const session = await admin();
    const stats = ReactionRoleStatsSchema.parse((await session.get(`${base()}/stats`).expect(200)).body);
    assert.ok(stats.assignments >= 5, `assignments ${stats.assignments}`);
    assert.ok(stats.removals >= 3, `removals ${stats.removals}`);
    assert.equal(stats.successRate, 100);
    assert.equal(stats.daily.length, 30);
    assert.equal(
      stats.daily.reduce((sum, day) => sum + day.assignments, 0),
      stats.assignments,
    );
    const list = ReactionRoleSchema.array().parse((await session.get(base())).body);
    assert.equal(stats.activeEntries, list.filter((row: ReactionRoleView) => row.isActive).length);
  });

  test("deleting an entry takes the bot's reaction off the message", async () => {
    const session = await admin();
    const list = ReactionRoleSchema.array().parse((await session.get(base())).body);
    const red = list.find((row) => row.messageId === messageIds[0] && row.emoji === '🔴');
    assert.ok(red);
    await session.delete(`${base()}/${red.id}`).expect(204);
    await waitFor(
      async () =>
        !(await h().messages(channelId))
          .find((row) => row.id === messageIds[0])
          ?.reactions.find((reaction) => reaction.emoji === '🔴')
          ?.userIds.includes(h().world.botUserId),
      5000,
      'the bot reaction to go',
    );
    assert.equal((await session.delete(`${base()}/${red.id}`)).status, 404);
  });
});

describe('reaction roles while the bot was offline', () => {
  let r: Restartable;
  before(async () => {
    r = await restartable();
    await r.start();
  });
  after(() => r.close());

  test('a reaction added while the bot was offline gives the role after a restart', async () => {
    const { world } = r.sandbox;
    const { guildId, channels, roles, adminUserId } = world.demo;
    const message = world.messages.create(channels.general, { authorId: adminUserId, content: 'Roles here' });
    const session = await r.signIn(adminUserId);
    const added = await session.post(`/api/servers/${guildId}/reaction-roles`, {
      messageId: message.id,
      channelId: channels.general,
      emoji: '⭐',
      roleId: roles.member,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const member = world.addMember(guildId, { username: 'offline_reactor' });
    await r.stop();
    world.messages.addReaction(message, '⭐', member.userId);
    await r.start();
    await waitFor(() => world.requireGuild(guildId).members.get(member.userId)?.roleIds.includes(roles.member), 5000, 'the role after the restart');
  });
});
