// Channel tools through the sandbox (issue 24, point 2): purge with its filters and Discord's 14-day
// cut, slowmode, lock and unlock from the dashboard's routes and the commands, each a case of the
// channel with the moderator; what the moderator may not do in that channel is refused, what the
// bot lacks is said; unlock puts back @everyone's overwrite as it was, after a restart too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PermissionFlagsBits as P } from 'discord.js';
import { ChannelToolResultSchema, ChannelToolStateSchema } from '../../src/shared/channel-tools';
import type { ControlMessage, ControlReply } from '../helpers/harness';
import { restartable, type Restartable } from '../helpers/restart';
import { waitFor } from '../helpers/wait';

let r: Restartable;
const world = () => r.sandbox.world;
const guildId = () => world().demo.guildId;
const url = (channelId: string, tool = '') => `/api/servers/${guildId()}/moderation/channels/${channelId}${tool ? `/${tool}` : ''}`;

/** Calls the sandbox's control API. */
async function control<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${r.sandbox.url}/_sandbox${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

type Overwrite = { id: string; type: 'role' | 'member'; allow?: string[]; deny?: string[] };

/** A new text channel (with overwrites), once the bot has seen it. */
async function buildChannel(overwrites: Overwrite[] = []): Promise<string> {
  const made = await control<{ id: string }>('POST', `/guilds/${guildId()}/channels`, { name: `tools-${Math.random().toString(36).slice(2, 8)}`, overwrites });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  await waitFor(() => r.product().client.channels.cache.has(made.body.id), 5000, 'the bot to see the channel');
  return made.body.id;
}

/** Posts as a member; returns the message id. */
async function post(channelId: string, authorId: string, content: string): Promise<string> {
  const posted = await control<{ id: string }>('POST', `/channels/${channelId}/messages`, { authorId, content });
  assert.equal(posted.status, 201, JSON.stringify(posted.body));
  return posted.body.id;
}

const slash = (userId: string, name: string, options: Record<string, unknown>, channelId: string) =>
  control<ControlReply['body']>('POST', '/interactions', { guildId: guildId(), channelId, userId, name, options });

const remaining = (channelId: string) =>
  world()
    .messages.list(channelId)
    .map((message) => message.content);
const channelRecord = (channelId: string) => world().guilds.get(guildId())?.channels.get(channelId);
const everyoneOverwrite = (channelId: string) => channelRecord(channelId)?.overwrites.find((o) => o.id === guildId());
const casesOf = (channelId: string) =>
  r.product().store.models.ModerationLog.findAll({ where: { guildId: guildId(), targetId: channelId }, order: [['caseNumber', 'ASC']] });

/** A member with the demo's Moderator role (Manage Server and Manage Messages, not Manage Channels). */
async function buildModerator(): Promise<string> {
  const member = world().addMember(guildId(), { username: `mod_${Math.random().toString(36).slice(2, 8)}`, roleIds: [world().demo.roles.moderator] });
  await waitFor(() => r.product().client.guilds.cache.get(guildId())?.members.cache.has(member.userId), 5000, 'the moderator to reach the bot');
  return member.userId;
}

describe('channel tools', () => {
  before(async () => {
    r = await restartable();
    await r.start();
    const admin = await r.signIn(world().demo.adminUserId);
    await admin.put(`/api/servers/${guildId()}/settings`, { logChannelId: world().demo.channels.modLog }).expect(200);
  });
  after(() => r.close());

  test('purge: 401 signed out, 400 naming the field, 403 without dashboard access or without Manage Messages in that channel, then 200', async () => {
    const moderatorId = await buildModerator();
    const channelId = await buildChannel([{ id: world().demo.roles.moderator, type: 'role', deny: ['ManageMessages'] }]);
    const anonymous = await fetch(`${r.product().url}${url(channelId, 'purge')}`, {
      method: 'POST',
      headers: { Origin: r.product().config.publicUrl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ count: 2 }),
    });
    assert.equal(anonymous.status, 401);
    const admin = await r.signIn(world().demo.adminUserId);
    assert.equal((await admin.post(url(channelId, 'purge'), { count: 0 }).expect(400)).body.fields.count, 'Count must be between 1 and 100.');
    assert.equal((await admin.post(url(channelId, 'purge'), { count: 101 }).expect(400)).body.fields.count, 'Count must be between 1 and 100.');
    assert.equal((await admin.post(url(channelId, 'purge'), { count: 2, bots: 'yes' }).expect(400)).body.fields.bots, 'Bots must be true or false.');
    await (await r.signIn(world().demo.plainMemberId)).post(url(channelId, 'purge'), { count: 2 }).expect(403);
    await post(channelId, world().demo.plainMemberId, 'one');
    await post(channelId, world().demo.plainMemberId, 'two');
    const moderator = await r.signIn(moderatorId);
    const refused = await moderator.post(url(channelId, 'purge'), { count: 2 }).expect(403);
    assert.match(refused.body.message, /^You need the Manage Messages permission in #tools-\w+ to purge messages\.$/);
    const locking = await moderator.post(url(channelId, 'lock'), {}).expect(403);
    assert.match(locking.body.message, /You need the Manage Channels and Manage Permissions permission/);
    assert.deepEqual(remaining(channelId), ['one', 'two']);
    const done = ChannelToolResultSchema.parse((await admin.post(url(channelId, 'purge'), { count: 2 }).expect(200)).body);
    assert.equal(done.deleted, 2);
    assert.deepEqual(remaining(channelId), []);
  });

  test('purge deletes the newest matching messages under 14 days old, says how many older were skipped, and logs the count and filters', async () => {
    const moderatorId = await buildModerator();
    const { plainMemberId, ownerUserId } = world().demo;
    const channelId = await buildChannel();
    await post(channelId, plainMemberId, 'old one');
    await post(channelId, plainMemberId, 'old two');
    r.clock.advance(15 * 86_400_000);
    await post(channelId, plainMemberId, 'see https://example.com');
    await post(channelId, ownerUserId, 'hello');
    await post(channelId, plainMemberId, 'buy spam');
    await post(channelId, ownerUserId, 'spam at discord.gg/abc');
    const moderator = await r.signIn(moderatorId);

    const byUser = ChannelToolResultSchema.parse((await moderator.post(url(channelId, 'purge'), { count: 10, userId: plainMemberId }).expect(200)).body);
    assert.equal(byUser.deleted, 2);
    assert.equal(byUser.skipped, 2);
    assert.match(byUser.message, /^Deleted 2 messages from Pat in #tools-\w+\. 2 older messages were skipped: Discord does not bulk delete/);
    assert.deepEqual(remaining(channelId), ['old one', 'old two', 'hello', 'spam at discord.gg/abc']);

    const links = ChannelToolResultSchema.parse((await moderator.post(url(channelId, 'purge'), { count: 1, links: true, contains: 'SPAM' }).expect(200)).body);
    assert.equal(links.deleted, 1, 'one message: a single delete');
    assert.deepEqual(remaining(channelId), ['old one', 'old two', 'hello']);

    const none = ChannelToolResultSchema.parse((await moderator.post(url(channelId, 'purge'), { count: 5, bots: true }).expect(200)).body);
    assert.equal(none.deleted, 0);
    assert.equal(none.caseNumber, null);

    const rows = await casesOf(channelId);
    assert.deepEqual(
      rows.map((row) => [row.action, row.moderatorId, row.details?.deleted]),
      [
        ['purge', moderatorId, 2],
        ['purge', moderatorId, 1],
      ],
    );
    assert.deepEqual(rows[0]?.details?.filters, { userId: plainMemberId });
    assert.equal(rows[0]?.targetName?.startsWith('#tools-'), true);
    const logged = await waitFor(
      async () =>
        (await control<ControlMessage[]>('GET', `/channels/${world().demo.channels.modLog}/messages`)).body.find((m) =>
          m.embeds.some((e) => e.title === `Case #${rows[1]?.caseNumber} · Purge`),
        ),
      5000,
      'the purge in the log channel',
    );
    assert.deepEqual(logged.pinged, { users: [], roles: [], everyone: false });
    assert.match(JSON.stringify(logged.embeds), /Deleted 1 message containing “SPAM”, with links/);
    // The target is the channel, named as one.
    assert.match(logged.embeds[0]?.fields?.find((field) => field.name === 'Channel')?.value ?? '', new RegExp(`^#tools-\\w+ \\(${channelId}\\)$`));
    assert.equal(
      logged.embeds[0]?.fields?.some((field) => field.name === 'Member'),
      false,
    );
  });

  test('!purge N deletes the N messages before the command: the command is not counted, and stays with the answer as its reply', async () => {
    const { plainMemberId, adminUserId } = world().demo;
    const channelId = await buildChannel();
    for (const content of ['one', 'two', 'three', 'four']) await post(channelId, plainMemberId, content);
    const commandId = await post(channelId, adminUserId, '!purge 2');
    const answer = await waitFor(
      () =>
        world()
          .messages.list(channelId)
          .find((message) => message.authorId === world().botUserId),
      5000,
      'the answer to !purge',
    );
    assert.match(answer.content ?? '', /^Deleted 2 messages in #tools-\w+\.$/);
    assert.deepEqual(remaining(channelId), ['one', 'two', '!purge 2', answer.content]);
    assert.equal(world().messages.get(commandId)?.id, commandId);
    const rows = await waitFor(async () => ((await casesOf(channelId)).length === 1 ? casesOf(channelId) : null), 5000, 'the purge case');
    assert.deepEqual(
      rows.map((row) => [row.action, row.source, row.details?.deleted]),
      [['purge', 'command', 2]],
    );
  });

  test('slowmode: the bot without Manage Channels says what to fix; with it, /slowmode and !slowmode set it in Discord', async () => {
    const channelId = await buildChannel();
    const admin = await r.signIn(world().demo.adminUserId);
    const refused = await admin.post(url(channelId, 'slowmode'), { seconds: 30 }).expect(422);
    assert.match(refused.body.message, /^AwesomeBot needs the Manage Channels permission in #tools-\w+ to set slowmode\. Give it to its role/);
    assert.equal((await admin.post(url(channelId, 'slowmode'), { seconds: 21601 }).expect(400)).body.fields.seconds, 'Seconds must be between 0 and 21,600.');
    const patched = await control('PATCH', `/channels/${channelId}`, { overwrites: [{ id: world().botUserId, type: 'member', allow: ['ManageChannels'] }] });
    assert.equal(patched.status, 200);
    await waitFor(() => r.product().client.channels.cache.get(channelId)?.isTextBased(), 5000, 'the channel update');
    await waitFor(
      () =>
        (
          r.product().client.guilds.cache.get(guildId())?.channels.cache.get(channelId) as { permissionOverwrites?: { cache: Map<string, unknown> } }
        )?.permissionOverwrites?.cache.has(world().botUserId),
      5000,
      'the overwrite to reach the bot',
    );
    const reply = await slash(world().demo.adminUserId, 'slowmode', { seconds: 30 }, channelId);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.match(reply.body.content, /^Slowmode in #tools-\w+ set to 30 seconds\.$/);
    assert.equal(channelRecord(channelId)?.rateLimitPerUser, 30);
    await post(channelId, world().demo.adminUserId, '!slowmode 0');
    await waitFor(() => channelRecord(channelId)?.rateLimitPerUser === 0, 5000, 'the text command to turn slowmode off');
    // Discord changes first, then the case is written.
    const rows = await waitFor(async () => ((await casesOf(channelId)).length === 2 ? casesOf(channelId) : null), 5000, 'the second slowmode case');
    assert.deepEqual(
      rows.map((row) => [row.action, row.details?.seconds, row.source]),
      [
        ['slowmode', 30, 'command'],
        ['slowmode', 0, 'command'],
      ],
    );
  });

  test('unlock puts @everyone’s overwrite back exactly as before the lock, after a restart too; a channel with no overwrite is left with none', async () => {
    const adminId = world().demo.adminUserId;
    const channelId = await buildChannel([{ id: guildId(), type: 'role', allow: ['SendMessages'], deny: ['AddReactions'] }]);
    const reply = await slash(adminId, 'lock', {}, channelId);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.match(reply.body.content, /^Locked #tools-\w+: members cannot send messages there until it is unlocked\.$/);
    assert.deepEqual(everyoneOverwrite(channelId), { id: guildId(), type: 0, allow: 0n, deny: P.SendMessages | P.AddReactions });
    const blocked = await control('POST', `/channels/${channelId}/messages`, { authorId: world().demo.plainMemberId, content: 'hello?' });
    assert.equal(blocked.status, 403, 'a member cannot send in the locked channel');
    const again = await slash(adminId, 'lock', {}, channelId);
    assert.match(again.body.content, /is already locked\.$/);

    await r.stop();
    await r.start();
    const admin = await r.signIn(adminId);
    const state = await waitFor(
      async () => {
        const body = ChannelToolStateSchema.parse((await admin.get(url(channelId)).expect(200)).body);
        return body.locked ? body : null;
      },
      5000,
      'the locked state after the restart',
    );
    assert.equal(state.locked, true);
    const unlocked = ChannelToolResultSchema.parse((await admin.post(url(channelId, 'unlock'), {}).expect(200)).body);
    assert.equal(unlocked.state.locked, false);
    assert.deepEqual(everyoneOverwrite(channelId), { id: guildId(), type: 0, allow: P.SendMessages, deny: P.AddReactions });

    const bare = await buildChannel();
    await admin.post(url(bare, 'lock'), {}).expect(200);
    assert.equal(everyoneOverwrite(bare)?.deny, P.SendMessages);
    await admin.post(url(bare, 'unlock'), {}).expect(200);
    assert.equal(everyoneOverwrite(bare), undefined);
    assert.deepEqual(
      (await casesOf(channelId)).map((row) => [row.action, row.moderatorId]),
      [
        ['lock', adminId],
        ['unlock', adminId],
      ],
    );
  });
});
