// The channel routes bots use besides posting, held to Discord's rules: the typing indicator, pins,
// channel create/modify/delete with slowmode, permission overwrites (which the sandbox's permission
// checks then follow), crossposts out of announcement channels, and bulk delete's limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AuditLogEvent,
  ChannelType,
  DiscordAPIError,
  Events,
  MessageFlags,
  MessageType,
  PermissionFlagsBits as P,
  type Message,
  type NewsChannel,
  type TextChannel,
} from 'discord.js';
import { ManualClock } from '../../src/core/clock';
import { DISCORD_EPOCH } from '../../src/sandbox/snowflake';
import type { WorldEvent } from '../../src/sandbox/world-state';
import { botApi, changeBotPermissions, control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('channel routes bots use', () => {
  let h: BotHarness;
  const clock = new ManualClock(Date.now());
  before(async () => {
    h = await startBotHarness({ memberCount: 20, clock, rateLimits: 'relaxed' });
  });
  after(() => h.close());
  const demo = () => h.sandbox.world.demo;
  const world = () => h.sandbox.world;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => botApi<T>(h.sandbox, method, path, body);
  const code = (expected: number) => (error: unknown) => error instanceof DiscordAPIError && error.code === expected;
  /** Gives the bot's role `add` and takes `remove` (an admin editing it in Discord). */
  const setBotPermissions = (add: bigint, remove = 0n) => changeBotPermissions(h.sandbox, (permissions) => (permissions | add) & ~remove);
  const dispatches = (t: string) => {
    const seen: WorldEvent[] = [];
    const listener = (event: WorldEvent) => {
      if (event.dispatch.t === t) seen.push(event);
    };
    world().events.on('dispatch', listener);
    return { seen, stop: () => world().events.off('dispatch', listener) };
  };
  const auditOf = (action: AuditLogEvent) =>
    world()
      .requireGuild(demo().guildId)
      .auditLog.filter((e) => e.action_type === action);
  const general = async () => (await h.client.channels.fetch(demo().channels.general)) as TextChannel;

  it('typing answers 204 and sends TYPING_START; it needs Send Messages', async () => {
    const typing = dispatches('TYPING_START');
    await (await general()).sendTyping();
    typing.stop();
    const [event] = typing.seen;
    assert.ok(event);
    assert.deepEqual(
      { ...(event.dispatch.d as Record<string, unknown>), member: undefined, timestamp: undefined },
      { channel_id: demo().channels.general, guild_id: demo().guildId, user_id: world().botUserId, member: undefined, timestamp: undefined },
    );
    assert.equal((event.dispatch.d as { timestamp: number }).timestamp, Math.floor(clock.ms() / 1000));

    const muted = await control<{ id: string }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/channels`, {
      name: 'no-typing',
      overwrites: [{ id: demo().roles.bot, type: 'role', deny: ['SendMessages'] }],
    });
    assert.equal((await api('POST', `/channels/${muted.body.id}/typing`)).body?.code, 50013);
  });

  it('pins: the message becomes pinned, a type 6 notice and CHANNEL_PINS_UPDATE follow, both listings show it, and the audit log has it', async () => {
    const channel = await general();
    const message = await channel.send('pin me');
    const notice = waitForEvent(h.client, Events.MessageCreate, (m: Message) => m.type === MessageType.ChannelPinnedMessage);
    const pinsUpdate = waitForEvent(h.client, Events.ChannelPinsUpdate);
    const updated = waitForEvent(h.client, Events.MessageUpdate, (_old: unknown, next: Message) => next.id === message.id);
    await message.pin('pinning for the test');
    const [system] = (await notice) as [Message];
    assert.equal(system.author.id, world().botUserId);
    assert.equal(system.reference?.messageId, message.id);
    await pinsUpdate;
    const [, next] = (await updated) as [unknown, Message];
    assert.equal(next.pinned, true);

    const fetched = await channel.messages.fetchPins();
    assert.deepEqual(
      fetched.items.map((pin) => pin.message.id),
      [message.id],
    );
    const legacy = await api<Array<{ id: string; pinned: boolean }>>('GET', `/channels/${channel.id}/pins`);
    assert.deepEqual(
      legacy.body.map((m) => [m.id, m.pinned]),
      [[message.id, true]],
    );
    const [entry] = auditOf(AuditLogEvent.MessagePin);
    assert.equal(entry?.target_id, world().botUserId);
    assert.equal(entry?.reason, 'pinning for the test');
    assert.deepEqual(entry?.options, { channel_id: channel.id, message_id: message.id });

    // Pinning again changes nothing; a system message cannot be pinned.
    const before = world().messages.list(channel.id).length;
    assert.equal((await api('PUT', `/channels/${channel.id}/messages/pins/${message.id}`)).status, 204);
    assert.equal(world().messages.list(channel.id).length, before, 'no second notice');
    assert.equal((await api('PUT', `/channels/${channel.id}/pins/${system.id}`)).body?.code, 50021);

    await message.unpin();
    assert.equal((await channel.messages.fetchPins()).items.length, 0);
    assert.equal(auditOf(AuditLogEvent.MessageUnpin).length, 1);
  });

  it('pins: 50 a channel (30003), and Pin Messages or Manage Messages is needed (50013)', async () => {
    const made = await control<{ id: string }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/channels`, { name: 'pin-board' });
    const channelId = made.body.id;
    const authorId = demo().plainMemberId;
    for (let i = 0; i < 50; i++) {
      const posted = world().messages.create(channelId, { authorId, content: `pin ${i}` });
      world().messages.setPinned(posted, true);
    }
    const extra = world().messages.create(channelId, { authorId, content: 'one too many' });
    const refused = await api('PUT', `/channels/${channelId}/messages/pins/${extra.id}`);
    assert.deepEqual([refused.status, refused.body?.code, refused.body?.message], [400, 30003, 'Maximum number of pins reached (50)']);
    const page = await api<{ items: unknown[]; has_more: boolean }>('GET', `/channels/${channelId}/messages/pins?limit=20`);
    assert.equal(page.body.items.length, 20);
    assert.equal(page.body.has_more, true);

    setBotPermissions(0n, P.ManageMessages);
    try {
      assert.equal((await api('DELETE', `/channels/${channelId}/messages/pins/${extra.id}`)).body?.code, 50013);
      setBotPermissions(P.PinMessages);
      const first = world().messages.pins(channelId).at(-1);
      assert.ok(first);
      assert.equal((await api('DELETE', `/channels/${channelId}/pins/${first.id}`)).status, 204);
      assert.equal((await api('PUT', `/channels/${channelId}/pins/${extra.id}`)).status, 204);
    } finally {
      setBotPermissions(P.ManageMessages, P.PinMessages);
    }
  });

  it('a channel is created with Manage Channels, modified (slowmode, topic, NSFW) and deleted; each change is logged', async () => {
    const guild = h.client.guilds.cache.get(demo().guildId);
    assert.ok(guild);
    await assert.rejects(guild.channels.create({ name: 'refused' }), code(50013));
    setBotPermissions(P.ManageChannels);
    try {
      const category = await guild.channels.create({ name: 'Bot Corner', type: ChannelType.GuildCategory });
      const created = waitForEvent(h.client, Events.ChannelCreate, (c: { name: string }) => c.name === 'bot-made');
      const channel = (await guild.channels.create({ name: 'bot-made', topic: 'Made by the bot', parent: category.id, reason: 'setup' })) as TextChannel;
      await created;
      assert.equal(channel.parentId, category.id);
      const [logged] = auditOf(AuditLogEvent.ChannelCreate).filter((e) => e.target_id === channel.id);
      assert.equal(logged?.reason, 'setup');
      assert.ok(logged?.changes?.some((c) => c.key === 'name' && c.new_value === 'bot-made'));

      const notCategory = await api('POST', `/guilds/${demo().guildId}/channels`, { name: 'x', parent_id: demo().channels.general });
      assert.equal(notCategory.body?.code, 50035);

      const updated = waitForEvent(h.client, Events.ChannelUpdate, (_old: unknown, next: TextChannel) => next.id === channel.id);
      await channel.edit({ name: 'bot-made-2', rateLimitPerUser: 30, nsfw: true, topic: 'Slow now' });
      const [, next] = (await updated) as [unknown, TextChannel];
      assert.deepEqual([next.name, next.rateLimitPerUser, next.nsfw, next.topic], ['bot-made-2', 30, true, 'Slow now']);
      const [change] = auditOf(AuditLogEvent.ChannelUpdate).filter((e) => e.target_id === channel.id);
      assert.deepEqual(
        change?.changes?.map((c) => [c.key, c.old_value, c.new_value]),
        [
          ['name', 'bot-made', 'bot-made-2'],
          ['topic', 'Made by the bot', 'Slow now'],
          ['nsfw', false, true],
          ['rate_limit_per_user', 0, 30],
        ],
      );

      for (const [body, field] of [
        [{ rate_limit_per_user: 21601 }, 'rate_limit_per_user'],
        [{ rate_limit_per_user: -1 }, 'rate_limit_per_user'],
        [{ topic: 'x'.repeat(1025) }, 'topic'],
        [{ name: '' }, 'name'],
        [{ type: 2 }, 'type'],
      ] as const) {
        const bad = await api<{ code: number; errors: Record<string, unknown> }>('PATCH', `/channels/${channel.id}`, body);
        assert.equal(bad.status, 400, JSON.stringify(body));
        assert.equal(bad.body.code, 50035);
        assert.ok(field in bad.body.errors, `${field} named: ${JSON.stringify(bad.body.errors)}`);
      }
      const voice = await api<{ bitrate: number; user_limit: number }>('PATCH', `/channels/${demo().channels.voice}`, { bitrate: 96000, user_limit: 5 });
      assert.deepEqual([voice.body.bitrate, voice.body.user_limit], [96000, 5]);
      assert.equal((await api('PATCH', `/channels/${demo().channels.voice}`, { bitrate: 128000 })).body?.code, 50035);

      // Deleting the category frees its channel; deleting the channel answers it.
      await category.delete();
      assert.equal(world().requireGuild(demo().guildId).channels.get(channel.id)?.parentId, null);
      const deleted = waitForEvent(h.client, Events.ChannelDelete, (c: { id: string }) => c.id === channel.id);
      const answer = await api<{ id: string; name: string }>('DELETE', `/channels/${channel.id}`);
      assert.deepEqual([answer.status, answer.body.id, answer.body.name], [200, channel.id, 'bot-made-2']);
      await deleted;
      assert.ok(auditOf(AuditLogEvent.ChannelDelete).some((e) => e.target_id === channel.id));
      assert.equal((await api('GET', `/channels/${channel.id}`)).body?.code, 10003);
    } finally {
      setBotPermissions(0n, P.ManageChannels);
    }
    assert.equal((await api('PATCH', `/channels/${demo().channels.general}`, { name: 'nope' })).body?.code, 50013);
  });

  it('slowmode holds members back (20016) but not moderators; the wait runs on the sandbox clock', async () => {
    const channelId = demo().channels.welcome;
    await control(h.sandbox, 'PATCH', `/channels/${channelId}`, { rateLimitPerUser: 60 });
    try {
      const post = (authorId: string) =>
        control<{ error?: string; message?: string }>(h.sandbox, 'POST', `/channels/${channelId}/messages`, { authorId, content: 'hi' });
      assert.equal((await post(demo().plainMemberId)).status, 201);
      const slowed = await post(demo().plainMemberId);
      assert.equal(slowed.status, 429);
      assert.equal(slowed.body.error, 'slowmode');
      assert.match(slowed.body.message ?? '', /20016/);
      const moderator = [...world().requireGuild(demo().guildId).members.values()].find((m) => m.roleIds.includes(demo().roles.moderator));
      assert.ok(moderator);
      assert.equal((await post(moderator.userId)).status, 201);
      assert.equal((await post(moderator.userId)).status, 201, 'Manage Messages bypasses slowmode');
      clock.advance(60_000);
      assert.equal((await post(demo().plainMemberId)).status, 201);
    } finally {
      await control(h.sandbox, 'PATCH', `/channels/${channelId}`, { rateLimitPerUser: 0 });
    }
  });

  it('permission overwrites: put and deleted with Manage Roles, only with permissions the bot holds; the sandbox follows them', async () => {
    const channel = await general();
    const { member: memberRole, moderator } = demo().roles;
    const memberId = [...world().requireGuild(demo().guildId).members.values()].find(
      (m) => m.roleIds.includes(memberRole) && !m.roleIds.includes(moderator) && !m.roleIds.includes(demo().roles.admin),
    )?.userId;
    assert.ok(memberId);
    const post = () => control(h.sandbox, 'POST', `/channels/${channel.id}/messages`, { authorId: memberId, content: 'may I?' });
    assert.equal((await post()).status, 201);

    const updated = waitForEvent(h.client, Events.ChannelUpdate, (_old: unknown, next: TextChannel) => next.id === channel.id);
    await channel.permissionOverwrites.edit(memberRole, { SendMessages: false }, { reason: 'quiet' });
    const [, next] = (await updated) as [unknown, TextChannel];
    assert.equal(next.permissionOverwrites.cache.get(memberRole)?.deny.has(P.SendMessages), true);
    assert.equal((await post()).status, 403, 'the overwrite takes Send Messages away');
    await channel.permissionOverwrites.edit(memberRole, { SendMessages: false, AddReactions: false });
    await channel.permissionOverwrites.delete(memberRole);
    assert.equal((await post()).status, 201);
    assert.deepEqual(
      [AuditLogEvent.ChannelOverwriteCreate, AuditLogEvent.ChannelOverwriteUpdate, AuditLogEvent.ChannelOverwriteDelete].map(
        (action) => auditOf(action).filter((e) => e.target_id === channel.id && e.options?.id === memberRole).length,
      ),
      [1, 1, 1],
    );
    const [createdEntry] = auditOf(AuditLogEvent.ChannelOverwriteCreate);
    assert.deepEqual([createdEntry?.reason, createdEntry?.options?.type, createdEntry?.options?.role_name], ['quiet', '0', 'Member']);

    // A permission the bot lacks (Manage Server) can be neither allowed nor denied; nor anything without Manage Roles.
    for (const body of [
      { type: 0, allow: String(P.ManageGuild), deny: '0' },
      { type: 0, allow: '0', deny: String(P.ManageGuild) },
    ]) {
      assert.equal((await api('PUT', `/channels/${channel.id}/permissions/${memberRole}`, body)).body?.code, 50013);
    }
    assert.equal((await api('PUT', `/channels/${channel.id}/permissions/${memberRole}`, { type: 1, allow: '0', deny: '0' })).body?.code, 10013);
    assert.equal((await api('PUT', `/channels/${channel.id}/permissions/${memberId}`, { type: 0, allow: '0', deny: '0' })).body?.code, 10011);
    setBotPermissions(0n, P.ManageRoles);
    try {
      assert.equal((await api('PUT', `/channels/${channel.id}/permissions/${memberId}`, { type: 1, allow: '0', deny: '2048' })).body?.code, 50013);
      assert.equal((await api('DELETE', `/channels/${channel.id}/permissions/${demo().roles.bot}`)).body?.code, 50013);
    } finally {
      setBotPermissions(P.ManageRoles);
    }
    // A member overwrite, as numbers rather than strings.
    assert.equal((await api('PUT', `/channels/${channel.id}/permissions/${memberId}`, { type: 1, allow: 0, deny: 2048 })).status, 204);
    assert.equal((await post()).status, 403);
    assert.equal((await api('DELETE', `/channels/${channel.id}/permissions/${memberId}`)).status, 204);
  });

  it('crossposts only in announcement channels (50024), once (40033), setting CROSSPOSTED', async () => {
    const plain = await (await general()).send('not news');
    await assert.rejects(plain.crosspost(), code(50024));
    setBotPermissions(P.ManageChannels);
    try {
      const guild = h.client.guilds.cache.get(demo().guildId);
      assert.ok(guild);
      const news = (await guild.channels.create({ name: 'news', type: ChannelType.GuildAnnouncement })) as NewsChannel;
      const posted = await news.send('big news');
      const published = await posted.crosspost();
      assert.equal(published.flags.has(MessageFlags.Crossposted), true);
      await assert.rejects(posted.crosspost(), code(40033));
      // A text channel becomes an announcement channel and back; a voice channel cannot.
      const converted = await api<{ type: number }>('PATCH', `/channels/${demo().channels.general}`, { type: ChannelType.GuildAnnouncement });
      assert.equal(converted.body.type, ChannelType.GuildAnnouncement);
      assert.equal((await api<{ type: number }>('PATCH', `/channels/${demo().channels.general}`, { type: ChannelType.GuildText })).body.type, 0);
      assert.equal((await api('PATCH', `/channels/${demo().channels.voice}`, { type: ChannelType.GuildText })).body?.code, 50035);
    } finally {
      setBotPermissions(0n, P.ManageChannels);
    }
  });

  it('bulk delete takes 2-100 distinct ids (50035), none older than 14 days by its id (50034), and passes over unknown ones', async () => {
    const channel = await general();
    const path = `/channels/${channel.id}/messages/bulk-delete`;
    const sent = await Promise.all(['a', 'b', 'c'].map((text) => channel.send(text)));
    const ids = sent.map((m) => m.id);
    const idAt = (ms: number) => String((BigInt(ms) - DISCORD_EPOCH) << 22n);
    for (const messages of [[ids[0]], Array.from({ length: 101 }, (_, i) => idAt(clock.ms() - i)), [ids[0], ids[0]], []]) {
      const refused = await api<{ code: number; errors: { messages?: unknown } }>('POST', path, { messages });
      assert.equal(refused.body.code, 50035, `${messages.length} ids`);
      assert.ok(refused.body.errors.messages);
    }
    // An id from 15 days ago refuses the lot, even for a message the sandbox never held.
    const old = await api<{ code: number; message: string }>('POST', path, { messages: [ids[0], idAt(clock.ms() - 15 * 86_400_000)] });
    assert.deepEqual([old.status, old.body.code, old.body.message], [400, 50034, 'You can only bulk delete messages that are under 14 days old.']);
    assert.equal(world().messages.get(ids[0] ?? '')?.id, ids[0], 'nothing deleted');
    // Just under 14 days is fine; unknown fresh ids are passed over.
    const bulk = dispatches('MESSAGE_DELETE_BULK');
    const fine = await api('POST', path, { messages: [...ids, idAt(clock.ms() - 14 * 86_400_000 + 60_000)] });
    bulk.stop();
    assert.equal(fine.status, 204);
    assert.deepEqual((bulk.seen[0]?.dispatch.d as { ids: string[] }).ids, ids);
    setBotPermissions(0n, P.ManageMessages);
    try {
      assert.equal((await api('POST', path, { messages: [idAt(clock.ms()), idAt(clock.ms() - 1)] })).body?.code, 50013);
    } finally {
      setBotPermissions(P.ManageMessages);
    }
  });
});
