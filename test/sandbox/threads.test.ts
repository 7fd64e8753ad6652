// Threads as a bot meets them: public and private threads made with their permissions (THREAD_CREATE
// with newly_created, the creator its first member, an audit entry), threads started from a message
// (same id; a second is 160004), messages in threads (Send Messages in Threads, counts, the author
// joins), members added, removed, joining and leaving (THREAD_MEMBERS_UPDATE about others only with
// GUILD_MEMBERS), archived and locked threads, the active and archived lists, and GUILD_CREATE's threads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AuditLogEvent,
  ChannelType,
  DiscordAPIError,
  Events,
  GatewayIntentBits as I,
  PermissionFlagsBits as P,
  Routes,
  type Client,
  type Message,
  type TextChannel,
  type ThreadChannel,
} from 'discord.js';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { changeBotPermissions, waitForEvent } from './helpers';
import { dispatchShapeProblems, nextDispatch, recordDispatches, recordWorldDispatches, startClientWithIntents, type RawDispatch } from './intents-client';

const refusedWith = (code: number) => (error: unknown) => error instanceof DiscordAPIError && error.code === code;
const BOT_INTENTS = [I.Guilds, I.GuildMessages, I.MessageContent, I.GuildMembers, I.GuildModeration];

describe('threads', () => {
  let sandbox: Sandbox;
  let bot: Client;
  let blind: Client;
  let blindSaw: RawDispatch[];
  let sent: RawDispatch[];
  /** The GUILD_CREATE a client that logged in after threads existed received. */
  let loginGuildCreate: RawDispatch | undefined;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
    sent = recordWorldDispatches(sandbox);
    bot = await startClientWithIntents(sandbox, BOT_INTENTS);
    blind = await startClientWithIntents(sandbox, [I.Guilds, I.GuildMessages, I.MessageContent]);
    blindSaw = recordDispatches(blind);
  });
  after(async () => {
    await bot.destroy();
    await blind.destroy();
    await sandbox.close();
  });

  const general = () => bot.channels.cache.get(sandbox.world.demo.channels.general) as TextChannel;
  const setBotPermissions = (change: (permissions: bigint) => bigint) => changeBotPermissions(sandbox, change);
  const record = (thread: ThreadChannel) => {
    const found = sandbox.world.threads.get(thread.id);
    assert.ok(found);
    return found;
  };
  const restThread = async (id: string) => (await bot.rest.get(Routes.channel(id))) as Record<string, unknown> & { thread_metadata: Record<string, unknown> };
  /** A member's message in a channel the bot watches: once the bot has it, every earlier dispatch has reached every session. */
  const barrier = async (client: Client) => {
    const content = `barrier ${Math.random()}`;
    const arrived = waitForEvent(client, Events.MessageCreate, (message: Message) => message.content === content);
    sandbox.world.messages.create(sandbox.world.demo.channels.general, { authorId: sandbox.world.demo.plainMemberId, content });
    await arrived;
  };

  it('a public thread: Create Public Threads, THREAD_CREATE with newly_created, the bot its first member, THREAD_CREATE in the audit log', async () => {
    const create = () => general().threads.create({ name: 'support', type: ChannelType.PublicThread, autoArchiveDuration: 60, reason: 'help desk' });
    await assert.rejects(create(), refusedWith(50013));
    setBotPermissions((p) => p | P.CreatePublicThreads);
    const announced = nextDispatch(bot, 'THREAD_CREATE');
    const joined = nextDispatch(bot, 'THREAD_MEMBERS_UPDATE');
    const thread = await create();
    const created = await announced;
    assert.equal(created.newly_created, true);
    assert.equal(created.id, thread.id);
    assert.deepEqual(
      ((await joined).added_members as { user_id: string }[]).map((m) => m.user_id),
      [sandbox.world.botUserId],
    );
    assert.equal(thread.ownerId, sandbox.world.botUserId);
    assert.equal(thread.parentId, general().id);

    const fetched = await restThread(thread.id);
    assert.equal(fetched.type, ChannelType.PublicThread);
    assert.equal(fetched.member_count, 1);
    assert.equal(fetched.message_count, 0);
    assert.deepEqual([fetched.thread_metadata.archived, fetched.thread_metadata.locked, fetched.thread_metadata.auto_archive_duration], [false, false, 60]);
    const logs = await general().guild.fetchAuditLogs({ type: AuditLogEvent.ThreadCreate });
    assert.equal(logs.entries.first()?.targetId, thread.id);
    assert.equal(logs.entries.first()?.reason, 'help desk');

    await assert.rejects(general().threads.create({ name: 'secret', type: ChannelType.PrivateThread }), refusedWith(50013));
    await assert.rejects(bot.rest.post(Routes.threads(thread.id), { body: { name: 'nested' } }), refusedWith(50024));
  });

  it('messages in a thread take Send Messages in Threads and are counted; a member who posts there joins it', async () => {
    setBotPermissions((p) => p | P.CreatePublicThreads);
    const thread = await general().threads.create({ name: 'chatter', type: ChannelType.PublicThread });
    await assert.rejects(thread.send('hello'), refusedWith(50013));
    setBotPermissions((p) => p | P.SendMessagesInThreads);
    const mine = await thread.send('hello');
    assert.equal(mine.channelId, thread.id);

    const { plainMemberId } = sandbox.world.demo;
    const reached = waitForEvent(bot, Events.MessageCreate, (message: Message) => message.channelId === thread.id && message.author.id === plainMemberId);
    const joined = nextDispatch(bot, 'THREAD_MEMBERS_UPDATE', (d) => (d.added_members as { user_id: string }[] | undefined)?.[0]?.user_id === plainMemberId);
    sandbox.world.messages.create(thread.id, { authorId: plainMemberId, content: `a reply for <@${sandbox.world.botUserId}>` });
    const [reply] = await reached;
    await joined;
    assert.ok(reply.channel.isThread());
    assert.equal(reply.mentions.users.has(sandbox.world.botUserId), true, 'a thread message pings as in its parent');
    await mine.delete();
    const counted = await restThread(thread.id);
    assert.equal(counted.message_count, 1, 'deleted messages are not counted');
    assert.equal(counted.total_message_sent, 2);
    assert.equal(counted.member_count, 2);
    assert.equal(counted.last_message_id, reply.id);
  });

  it('a thread from a message has its id and shows on the message; a second thread from it is 160004', async () => {
    setBotPermissions((p) => p | P.CreatePublicThreads);
    const message = await general().send('discuss this');
    const marked = waitForEvent(bot, Events.MessageUpdate, (_old: unknown, next: Message) => next.id === message.id);
    const thread = await message.startThread({ name: 'discussion', reason: 'a long one' });
    assert.equal(thread.id, message.id);
    await marked;
    const fetched = (await bot.rest.get(Routes.channelMessage(general().id, message.id))) as { thread?: { id: string }; flags: number };
    assert.equal(fetched.thread?.id, message.id);
    assert.equal(fetched.flags & 32, 32, 'HAS_THREAD');
    await assert.rejects(bot.rest.post(Routes.threads(general().id, message.id), { body: { name: 'again' } }), refusedWith(160004));
    await assert.rejects(bot.rest.post(Routes.threads(general().id, '1100000000000000000'), { body: { name: 'none' } }), refusedWith(10008));
  });

  it('members: added and removed (THREAD_MEMBERS_UPDATE, about others only with GUILD_MEMBERS), the bot leaves and joins, listed', async () => {
    setBotPermissions((p) => (p | P.CreatePublicThreads | P.SendMessagesInThreads) & ~P.ManageThreads);
    const thread = await general().threads.create({ name: 'members', type: ChannelType.PublicThread });
    const { plainMemberId } = sandbox.world.demo;

    const added = nextDispatch(bot, 'THREAD_MEMBERS_UPDATE', (d) => d.id === thread.id && Array.isArray(d.added_members));
    await thread.members.add(plainMemberId);
    assert.equal((await added).member_count, 2);
    const listed = (await bot.rest.get(Routes.threadMembers(thread.id), { query: new URLSearchParams({ with_member: 'true' }) })) as {
      user_id: string;
      member?: { user: { id: string } };
    }[];
    assert.deepEqual(listed.map((m) => m.user_id).sort(), [plainMemberId, sandbox.world.botUserId].sort());
    assert.ok(listed.every((m) => m.member?.user.id === m.user_id));
    await assert.rejects(bot.rest.get(Routes.threadMembers(thread.id, sandbox.world.demo.adminUserId)), refusedWith(10007));

    // Removing someone else from a public thread takes Manage Threads.
    await assert.rejects(thread.members.remove(plainMemberId), refusedWith(50013));
    setBotPermissions((p) => p | P.ManageThreads);
    const removed = nextDispatch(bot, 'THREAD_MEMBERS_UPDATE', (d) => (d.removed_member_ids as string[] | undefined)?.includes(plainMemberId) ?? false);
    await thread.members.remove(plainMemberId);
    await removed;

    const left = nextDispatch(
      blind,
      'THREAD_MEMBERS_UPDATE',
      (d) => (d.removed_member_ids as string[] | undefined)?.includes(sandbox.world.botUserId) ?? false,
    );
    await thread.leave();
    await left;
    const ownUpdate = nextDispatch(bot, 'THREAD_MEMBER_UPDATE', (d) => d.id === thread.id);
    await thread.join();
    assert.equal((await ownUpdate).user_id, sandbox.world.botUserId);
    await barrier(blind);
    const about = (updates: RawDispatch[]) =>
      updates
        .filter((d) => d.t === 'THREAD_MEMBERS_UPDATE' && d.d.id === thread.id)
        .map((d) =>
          [
            ...((d.d.added_members as { user_id: string }[] | undefined) ?? []).map((m) => `+${m.user_id}`),
            ...((d.d.removed_member_ids as string[] | undefined) ?? []).map((id) => `-${id}`),
          ].join(),
        );
    const botId = sandbox.world.botUserId;
    assert.deepEqual(about(sent), [`+${botId}`, `+${plainMemberId}`, `-${plainMemberId}`, `-${botId}`, `+${botId}`]);
    // Without GUILD_MEMBERS: only the updates about the bot itself.
    assert.deepEqual(about(blindSaw), [`+${botId}`, `-${botId}`, `+${botId}`]);
  });

  it('a private thread needs Create Private Threads, and hides from a bot that left it without Manage Threads', async () => {
    setBotPermissions((p) => (p | P.CreatePublicThreads) & ~(P.CreatePrivateThreads | P.ManageThreads));
    await assert.rejects(general().threads.create({ name: 'staff', type: ChannelType.PrivateThread }), refusedWith(50013));
    setBotPermissions((p) => p | P.CreatePrivateThreads);
    const thread = await general().threads.create({ name: 'staff', type: ChannelType.PrivateThread, invitable: false });
    const shown = await restThread(thread.id);
    assert.equal(shown.type, ChannelType.PrivateThread);
    assert.equal(shown.thread_metadata.invitable, false);
    await thread.leave();
    await assert.rejects(bot.rest.get(Routes.channel(thread.id)), refusedWith(50001));
    setBotPermissions((p) => p | P.ManageThreads);
    assert.equal((await restThread(thread.id)).id, thread.id);
  });

  it('archived: listed as archived, not active; a message unarchives it (THREAD_UPDATE first); locked: 160005; joining: 50083', async () => {
    setBotPermissions((p) => (p | P.CreatePublicThreads | P.SendMessagesInThreads | P.ReadMessageHistory) & ~P.ManageThreads);
    const thread = await general().threads.create({ name: 'old news', type: ChannelType.PublicThread });
    await thread.leave();
    const archivedUpdate = nextDispatch(bot, 'THREAD_UPDATE', (d) => d.id === thread.id);
    sandbox.world.threads.update(record(thread), { archived: true });
    assert.equal(((await archivedUpdate).thread_metadata as { archived: boolean }).archived, true);

    const archived = await general().threads.fetchArchived({ type: 'public', fetchAll: true });
    assert.ok(archived.threads.has(thread.id));
    const active = await general().guild.channels.fetchActiveThreads();
    assert.equal(active.threads.has(thread.id), false);
    await assert.rejects(thread.join(), refusedWith(50083));

    const order: string[] = [];
    const track = (packet: RawDispatch) => {
      if ((packet.d.id === thread.id || packet.d.channel_id === thread.id) && packet.t) order.push(packet.t);
    };
    bot.on(Events.Raw, track);
    const posted = nextDispatch(bot, 'MESSAGE_CREATE', (d) => d.channel_id === thread.id);
    await thread.send('back to life');
    await posted;
    bot.off(Events.Raw, track);
    assert.ok(order.indexOf('THREAD_UPDATE') >= 0 && order.indexOf('THREAD_UPDATE') < order.indexOf('MESSAGE_CREATE'), order.join(', '));
    assert.equal(record(thread).archived, false);
    assert.ok(record(thread).members.has(sandbox.world.botUserId), 'posting joined the bot');

    sandbox.world.threads.update(record(thread), { archived: true, locked: true });
    await assert.rejects(thread.send('let me in'), refusedWith(160005));
    assert.equal(record(thread).archived, true);
  });

  it('PATCH and DELETE /channels: the creator renames and archives; locking and deleting take Manage Threads; archived, no rename (50083)', async () => {
    setBotPermissions((p) => (p | P.CreatePublicThreads | P.SendMessagesInThreads) & ~P.ManageThreads);
    const thread = await general().threads.create({ name: 'to be edited', type: ChannelType.PublicThread });
    const renamed = nextDispatch(bot, 'THREAD_UPDATE', (d) => d.id === thread.id && d.name === 'edited');
    await thread.setName('edited', 'a better name');
    await renamed;
    assert.equal(record(thread).name, 'edited');
    await assert.rejects(thread.setLocked(true), refusedWith(50013), 'locking takes Manage Threads');
    await thread.setArchived(true);
    assert.equal(record(thread).archived, true);
    await assert.rejects(thread.setName('while archived'), refusedWith(50083));
    await thread.setArchived(false);
    await assert.rejects(thread.delete(), refusedWith(50013), 'deleting takes Manage Threads');
    setBotPermissions((p) => p | P.ManageThreads);
    await thread.setLocked(true);
    assert.equal(record(thread).locked, true);
    const gone = nextDispatch(bot, 'THREAD_DELETE', (d) => d.id === thread.id);
    await thread.delete('done with it');
    await gone;
    assert.equal(sandbox.world.threads.get(thread.id), undefined);
    assert.equal(general().id, sandbox.world.demo.channels.general, 'the parent channel stays');
    assert.ok(sandbox.world.requireGuild(sandbox.world.demo.guildId).channels.has(general().id));
    const updated = await general().guild.fetchAuditLogs({ type: AuditLogEvent.ThreadUpdate });
    assert.ok(updated.entries.some((entry) => entry.targetId === thread.id && entry.reason === 'a better name'));
    const deleted = await general().guild.fetchAuditLogs({ type: AuditLogEvent.ThreadDelete });
    assert.ok(deleted.entries.some((entry) => entry.targetId === thread.id && entry.reason === 'done with it'));
  });

  it("GUILD_CREATE carries the active threads the bot can see, with the bot's membership", async () => {
    setBotPermissions((p) => p | P.CreatePublicThreads);
    const thread = await general().threads.create({ name: 'seen at login', type: ChannelType.PublicThread });
    const received: RawDispatch[] = [];
    const late = await startClientWithIntents(sandbox, BOT_INTENTS, received);
    try {
      loginGuildCreate = received.find((d) => d.t === 'GUILD_CREATE' && d.d.id === sandbox.world.demo.guildId);
      const threads = (loginGuildCreate?.d.threads ?? []) as { id: string; member?: Record<string, unknown> }[];
      const own = threads.find((t) => t.id === thread.id)?.member;
      assert.ok(own, "the bot's membership comes along");
      assert.deepEqual(Object.keys(own).sort(), ['flags', 'join_timestamp'], 'without id and user_id, as in GUILD_CREATE');
      const cached = late.channels.cache.get(thread.id);
      assert.ok(cached?.isThread());
      assert.equal(cached.parentId, general().id);
      const archivedOne = [...sandbox.world.threads.inGuild(sandbox.world.demo.guildId)].find((t) => t.archived);
      assert.ok(archivedOne);
      assert.equal(late.channels.cache.has(archivedOne.id), false, 'archived threads are not in GUILD_CREATE');
    } finally {
      await late.destroy();
    }
  });

  it('every dispatch sent conforms to discord-api-types (threads in GUILD_CREATE included)', () => {
    assert.ok(loginGuildCreate);
    assert.deepEqual(dispatchShapeProblems([...sent, loginGuildCreate]), []);
    for (const t of ['THREAD_CREATE', 'THREAD_UPDATE', 'THREAD_MEMBERS_UPDATE', 'THREAD_MEMBER_UPDATE', 'MESSAGE_UPDATE'])
      assert.ok(
        sent.some((d) => d.t === t),
        t,
      );
  });
});
