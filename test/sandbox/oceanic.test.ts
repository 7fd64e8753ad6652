// A second opinion: Oceanic.js 1.15, unmodified, pointed at the sandbox as at Discord. What it finds
// is fixed in the sandbox, never patched in the client. It connects (plain JSON and zlib-stream,
// which it inflates with pako), caches the guilds from GUILD_CREATE, asks for members over the
// gateway, and then takes the tour of what a bot does: messages with embeds and components,
// reactions, DMs, roles, timeouts, bans, the audit log, slash commands answered deferred and
// ephemeral, and a button click. Members act through the control API, as in the product's tests.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Client as OceanicClient } from 'oceanic.js';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { changeBotPermissions, control } from './helpers';

// The CommonJS build: tsx's interop misreads the double default of the package's ESM wrapper.
const { Client } = createRequire(import.meta.url)('oceanic.js') as typeof import('oceanic.js');

/** An Oceanic.js client on the sandbox, ready (READY and every GUILD_CREATE handled). */
async function connect(sandbox: Sandbox, compress?: 'zlib-stream'): Promise<OceanicClient> {
  const client = new Client({
    auth: `Bot ${sandbox.botToken}`,
    rest: { baseURL: `${sandbox.apiBase}/v10` },
    gateway: {
      intents: ['GUILDS', 'GUILD_MEMBERS', 'GUILD_MODERATION', 'GUILD_MESSAGES', 'GUILD_MESSAGE_REACTIONS', 'DIRECT_MESSAGES', 'MESSAGE_CONTENT'],
      ...(compress ? { compress } : {}),
      autoReconnect: false,
    },
  });
  const errors: Error[] = [];
  client.on('error', (error) => void errors.push(error instanceof Error ? error : new Error(String(error))));
  const ready = new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('disconnect', () => reject(new Error(`disconnected before ready: ${errors.map((error) => error.message).join('; ')}`)));
  });
  await client.connect();
  await ready;
  assert.deepEqual(errors, []);
  return client;
}

describe('Oceanic.js against the sandbox', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
  });
  after(() => sandbox.close());

  for (const compress of [undefined, 'zlib-stream'] as const) {
    test(`connects unmodified${compress ? ' with zlib-stream' : ''}: the bot user, both guilds cached, members asked over the gateway`, async () => {
      const client = await connect(sandbox, compress);
      try {
        assert.equal(client.user.id, sandbox.world.botUserId);
        const guild = client.guilds.get(sandbox.world.demo.guildId);
        assert.equal(guild?.name, sandbox.world.requireGuild(sandbox.world.demo.guildId).name);
        assert.ok(guild.channels.has(sandbox.world.demo.channels.general), 'the channels came with GUILD_CREATE');
        const members = await guild.fetchMembers({ limit: 5 });
        assert.equal(members.length, 5);
      } finally {
        client.disconnect(false);
      }
    });
  }

  test('sends a message with an embed and reads it back', async () => {
    const client = await connect(sandbox);
    try {
      const channelId = sandbox.world.demo.channels.general;
      const sent = await client.rest.channels.createMessage(channelId, {
        content: 'hello from Oceanic.js',
        embeds: [{ title: 'Tour', description: 'stop 1' }],
      });
      assert.equal(sent.content, 'hello from Oceanic.js');
      const read = await client.rest.channels.getMessage(channelId, sent.id);
      assert.deepEqual([read.content, read.embeds[0]?.title, read.author.id], ['hello from Oceanic.js', 'Tour', sandbox.world.botUserId]);
      assert.equal(sandbox.world.messages.list(channelId).at(-1)?.content, 'hello from Oceanic.js');
    } finally {
      client.disconnect(false);
    }
  });
});

/** The first `event` of `client` whose arguments pass `filter`; fails after 5 s. */
function nextEvent<A extends unknown[]>(client: OceanicClient, event: string, filter: (...args: A) => boolean = () => true): Promise<A> {
  const emitter = client as unknown as NodeJS.EventEmitter;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`Oceanic.js saw no ${event}`));
    }, 5000);
    const listener = (...args: unknown[]) => {
      if (!filter(...(args as A))) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(args as A);
    };
    emitter.on(event, listener);
  });
}

describe("Oceanic.js's tour of what a bot does", () => {
  let sandbox: Sandbox;
  let client: OceanicClient;
  /** Members with no role above the bot's: whom it may time out and ban. */
  let crowd: string[] = [];
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
    client = await connect(sandbox);
    const { demo } = sandbox.world;
    crowd = [...sandbox.world.requireGuild(demo.guildId).members.values()]
      .filter((member) => member.roleIds.every((role) => role === demo.roles.verified || role === demo.roles.member))
      .map((member) => member.userId)
      .filter((id) => ![demo.ownerUserId, demo.plainMemberId, sandbox.world.botUserId].includes(id));
  });
  after(async () => {
    client.disconnect(false);
    await sandbox.close();
  });

  test("reactions: the bot reacts and reads who reacted; a member's reaction arrives as MESSAGE_REACTION_ADD", async () => {
    const { demo } = sandbox.world;
    const channelId = demo.channels.general;
    const message = await client.rest.channels.createMessage(channelId, { content: 'react to me' });
    await client.rest.channels.createReaction(channelId, message.id, '👍');
    const seen = nextEvent<[{ id: string }, { id: string }]>(
      client,
      'messageReactionAdd',
      (reacted, reactor) => reacted.id === message.id && reactor.id === demo.plainMemberId,
    );
    assert.equal(
      (await control(sandbox, 'PUT', `/channels/${channelId}/messages/${message.id}/reactions/${encodeURIComponent('👍')}/${demo.plainMemberId}`)).status,
      204,
    );
    await seen;
    const users = await client.rest.channels.getReactions(channelId, message.id, '👍');
    assert.deepEqual(users.map((user) => user.id).sort(), [sandbox.world.botUserId, demo.plainMemberId].sort());
    await client.rest.channels.deleteReaction(channelId, message.id, '👍');
    assert.deepEqual(
      (await client.rest.channels.getReactions(channelId, message.id, '👍')).map((user) => user.id),
      [demo.plainMemberId],
    );
  });

  test('DMs: the bot opens a DM channel and writes in it; the sandbox holds the message for the member', async () => {
    const { demo } = sandbox.world;
    const dm = await client.rest.users.createDM(demo.plainMemberId);
    assert.equal(dm.recipient?.id, demo.plainMemberId);
    const sent = await dm.createMessage({ content: 'a word in private' });
    assert.equal(sent.channelID, dm.id);
    assert.equal(sandbox.world.dms.channel(dm.id)?.messages.at(-1)?.content, 'a word in private');
  });

  test('roles: given and taken back, each change arriving as GUILD_MEMBER_UPDATE in the cache', async () => {
    const { demo } = sandbox.world;
    const [target = ''] = crowd;
    const given = nextEvent<[{ id: string; roles: string[] }]>(
      client,
      'guildMemberUpdate',
      (member) => member.id === target && member.roles.includes(demo.roles.moderator),
    );
    await client.rest.guilds.addMemberRole(demo.guildId, target, demo.roles.moderator, 'the tour');
    await given;
    assert.ok(client.guilds.get(demo.guildId)?.members.get(target)?.roles.includes(demo.roles.moderator));
    const taken = nextEvent<[{ id: string; roles: string[] }]>(
      client,
      'guildMemberUpdate',
      (member) => member.id === target && !member.roles.includes(demo.roles.moderator),
    );
    await client.rest.guilds.removeMemberRole(demo.guildId, target, demo.roles.moderator);
    await taken;
    // A role of its own: made, renamed and deleted, each change in the guild's cache.
    const created = nextEvent<[{ name: string }]>(client, 'guildRoleCreate', (role) => role.name === 'tour guide');
    const made = await client.rest.guilds.createRole(demo.guildId, { name: 'tour guide', color: 0x3366ff, reason: 'the tour' });
    await created;
    assert.equal(client.guilds.get(demo.guildId)?.roles.get(made.id)?.color, 0x3366ff);
    const renamed = await client.rest.guilds.editRole(demo.guildId, made.id, { name: 'tour leader' });
    assert.equal(renamed.name, 'tour leader');
    const deleted = nextEvent<[{ id: string }]>(client, 'guildRoleDelete', (role) => role.id === made.id);
    await client.rest.guilds.deleteRole(demo.guildId, made.id);
    await deleted;
    assert.equal(client.guilds.get(demo.guildId)?.roles.has(made.id), false);
    // Discord's hierarchy holds for this client as for discord.js: a role above the bot's is refused.
    await assert.rejects(
      client.rest.guilds.addMemberRole(demo.guildId, target, demo.roles.aboveBot),
      (error: Error & { code?: number }) => error.code === 50013,
    );
  });

  test('timeouts: a member is timed out until a time and released', async () => {
    const { demo } = sandbox.world;
    const [, target = ''] = crowd;
    const until = new Date(Date.now() + 10 * 60_000).toISOString();
    const member = await client.rest.guilds.editMember(demo.guildId, target, { communicationDisabledUntil: until, reason: 'the tour' });
    assert.equal(member.communicationDisabledUntil?.toISOString(), until);
    const released = await client.rest.guilds.editMember(demo.guildId, target, { communicationDisabledUntil: null });
    assert.equal(released.communicationDisabledUntil, null);
    await assert.rejects(
      client.rest.guilds.editMember(demo.guildId, demo.ownerUserId, { communicationDisabledUntil: until }),
      (error: Error & { code?: number }) => error.code === 50013,
      'the owner cannot be timed out',
    );
  });

  test('bans: banned (GUILD_BAN_ADD), read back, listed, lifted; the audit log tells who did what and why', async () => {
    const { demo } = sandbox.world;
    const [, , target = ''] = crowd;
    const banned = nextEvent<[{ id: string }, { id: string }]>(client, 'guildBanAdd', (guild, user) => user.id === target);
    await client.rest.guilds.createBan(demo.guildId, target, { deleteMessageSeconds: 0, reason: 'the tour bans' });
    await banned;
    const ban = await client.rest.guilds.getBan(demo.guildId, target);
    assert.deepEqual([ban.user.id, ban.reason], [target, 'the tour bans']);
    assert.ok((await client.rest.guilds.getBans(demo.guildId)).some((entry) => entry.user.id === target));
    await client.rest.guilds.removeBan(demo.guildId, target, 'the tour forgives');
    await assert.rejects(client.rest.guilds.getBan(demo.guildId, target), (error: Error & { code?: number }) => error.code === 10026);

    const log = await client.rest.guilds.getAuditLog(demo.guildId, { actionType: 22 });
    const entry = log.entries.find((item) => item.targetID === target);
    assert.deepEqual([entry?.user?.id, entry?.reason], [sandbox.world.botUserId, 'the tour bans']);
    const lifted = await client.rest.guilds.getAuditLog(demo.guildId, { actionType: 23, limit: 1 });
    assert.equal(lifted.entries[0]?.reason, 'the tour forgives');
  });

  test('slash commands: registered in bulk; answered at once and ephemeral, or deferred, edited and followed up privately', async () => {
    const { demo } = sandbox.world;
    const commands = await client.rest.applications.bulkEditGuildCommands(client.application.id, demo.guildId, [
      { type: 1, name: 'tour', description: 'A stop of the tour', options: [{ type: 3, name: 'stop', description: 'Which stop', required: true }] },
    ]);
    assert.deepEqual(
      commands.map((command) => command.name),
      ['tour'],
    );
    /** The member runs /tour; Oceanic.js answers with `answer`; resolves to the member's view and the follow-up's flags, if any. */
    const run = async (stop: string, answer: (interaction: import('oceanic.js').CommandInteraction) => Promise<number | null>) => {
      const answered = new Promise<number | null>((resolve, reject) => {
        client.once('interactionCreate', (interaction) => {
          if (!interaction.isCommandInteraction()) return reject(new Error('not a command'));
          void answer(interaction).then(resolve, reject);
        });
      });
      const reply = await control<{ content: string; ephemeral: boolean; deferred: boolean }>(sandbox, 'POST', '/interactions', {
        guildId: demo.guildId,
        channelId: demo.channels.general,
        userId: demo.plainMemberId,
        name: 'tour',
        options: { stop },
      });
      assert.equal(reply.status, 200);
      return { reply: reply.body, followUpFlags: await answered };
    };

    const direct = await run('six', async (interaction) => {
      await interaction.createMessage({ content: `stop ${interaction.data.options.getString('stop', true)}, for you alone`, flags: 64 });
      return null;
    });
    assert.deepEqual([direct.reply.content, direct.reply.ephemeral, direct.reply.deferred], ['stop six, for you alone', true, false]);

    const deferred = await run('seven', async (interaction) => {
      await interaction.defer();
      await interaction.editOriginal({ content: `stop ${interaction.data.options.getString('stop', true)}, for everyone` });
      const followUp = await interaction.createFollowup({ content: 'and a private word more', flags: 64 });
      assert.equal((await interaction.getFollowup(followUp.message.id)).content, 'and a private word more');
      return followUp.message.flags;
    });
    assert.deepEqual([deferred.reply.content, deferred.reply.ephemeral, deferred.reply.deferred], ['stop seven, for everyone', false, true]);
    assert.equal((deferred.followUpFlags ?? 0) & 64, 64, 'the follow-up is ephemeral');
  });

  test('running the server: a channel with slowmode and an overwrite, a pin, typing, an invite, a webhook, a thread, all undone', async () => {
    const { demo } = sandbox.world;
    // The demo bot moderates; running the server takes more.
    changeBotPermissions(
      sandbox,
      (held) => held | P.ManageChannels | P.ManageWebhooks | P.PinMessages | P.CreatePublicThreads | P.SendMessagesInThreads | P.ManageThreads,
    );
    const channel = await client.rest.guilds.createChannel(demo.guildId, 0, { name: 'tour-stop', topic: 'Where the tour stops' });
    const edited = await client.rest.channels.edit(channel.id, { rateLimitPerUser: 30, reason: 'slow down' });
    assert.equal((edited as { rateLimitPerUser?: number }).rateLimitPerUser, 30);
    await client.rest.channels.editPermission(channel.id, demo.roles.member, { type: 0, allow: '0', deny: String(P.AddReactions) });
    assert.deepEqual(
      sandbox.world
        .requireGuild(demo.guildId)
        .channels.get(channel.id)
        ?.overwrites.find((o) => o.id === demo.roles.member)?.deny,
      P.AddReactions,
    );
    // A permission the bot lacks may not be granted (Discord: 50013).
    await assert.rejects(
      client.rest.channels.editPermission(channel.id, demo.roles.member, { type: 0, allow: String(P.Administrator) }),
      (error: Error & { code?: number }) => error.code === 50013,
    );

    const message = await client.rest.channels.createMessage(channel.id, { content: 'pin me' });
    await client.rest.channels.pinMessage(channel.id, message.id, 'worth keeping');
    assert.deepEqual(
      (await client.rest.channels.getPinnedMessages(channel.id)).map((pinned) => pinned.id),
      [message.id],
    );
    await client.rest.channels.sendTyping(channel.id);

    const invite = await client.rest.channels.createInvite(channel.id, { maxAge: 3600, maxUses: 5, unique: true });
    assert.equal((await client.rest.channels.getInvite(invite.code, { withCounts: true })).code, invite.code);
    await client.rest.channels.deleteInvite(invite.code);

    const webhook = await client.rest.webhooks.create(channel.id, { name: 'Tour Announcer' });
    assert.ok(webhook.token);
    const posted = await client.rest.webhooks.execute(webhook.id, webhook.token, { content: 'the webhook speaks', wait: true });
    assert.deepEqual([posted.content, posted.webhookID, posted.author.username], ['the webhook speaks', webhook.id, 'Tour Announcer']);
    await client.rest.webhooks.delete(webhook.id);

    const thread = await client.rest.channels.startThreadWithoutMessage(channel.id, { name: 'side trip', type: 11, autoArchiveDuration: 60 });
    await client.rest.channels.createMessage(thread.id, { content: 'in the thread' });
    const archived = await client.rest.channels.edit(thread.id, { archived: true });
    assert.equal((archived as { threadMetadata?: { archived: boolean } }).threadMetadata?.archived, true);
    assert.equal(sandbox.world.requireGuild(demo.guildId).channels.get(channel.id)?.name, 'tour-stop', 'the thread, not its parent, was edited');

    await client.rest.channels.delete(channel.id, 'the tour moves on');
    assert.equal(sandbox.world.requireGuild(demo.guildId).channels.has(channel.id), false);
  });

  test('components: a button sent with a message, clicked by a member, answered by updating that message', async () => {
    const { demo } = sandbox.world;
    const channelId = demo.channels.general;
    const message = await client.rest.channels.createMessage(channelId, {
      content: 'click below',
      components: [{ type: 1, components: [{ type: 2, style: 1, customID: 'tour-click', label: 'Click' }] }],
    });
    const answered = new Promise<string>((resolve, reject) => {
      client.once('interactionCreate', (interaction) => {
        if (!interaction.isComponentInteraction()) return reject(new Error('not a component'));
        void interaction.editParent({ content: `clicked by ${interaction.user.id}`, components: [] }).then(() => resolve(interaction.data.customID), reject);
      });
    });
    const click = await control<{ updated?: { content: string; components: unknown[] } }>(sandbox, 'POST', '/interactions/component', {
      channelId,
      messageId: message.id,
      userId: demo.plainMemberId,
      customId: 'tour-click',
    });
    assert.equal(await answered, 'tour-click');
    assert.equal(click.status, 200);
    assert.deepEqual(click.body.updated && [click.body.updated.content, click.body.updated.components], [`clicked by ${demo.plainMemberId}`, []]);
    assert.equal(sandbox.world.messages.get(message.id)?.content, `clicked by ${demo.plainMemberId}`);
  });
});
