import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import {
  ApplicationCommandOptionType,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  type ChatInputCommandInteraction,
  type GuildMember,
  type Message,
  type MessageReaction,
  type User,
} from 'discord.js';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

interface Reply {
  content: string;
  embeds: Array<{ title?: string }>;
  ephemeral: boolean;
  deferred: boolean;
  messageId: string | null;
  interactionId: string;
}

describe('member actions reach the bot and the bot answers', () => {
  let h: BotHarness;
  let lastToken = '';
  before(async () => {
    h = await startBotHarness();
    await h.client.application?.commands.set(
      [
        { name: 'ping', description: 'Replies pong' },
        { name: 'slow', description: 'Defers, then edits' },
        { name: 'secret', description: 'Ephemeral reply' },
        {
          name: 'warn',
          description: 'Warns a member',
          defaultMemberPermissions: '8192',
          options: [
            { name: 'user', description: 'who', type: ApplicationCommandOptionType.User, required: true },
            { name: 'points', description: 'how many', type: ApplicationCommandOptionType.Integer },
          ],
        },
      ],
      h.sandbox.world.demo.guildId,
    );
    h.client.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      lastToken = interaction.token;
      await handle(interaction);
    });
  });
  after(async () => {
    await h.close();
  });

  async function handle(interaction: ChatInputCommandInteraction): Promise<void> {
    switch (interaction.commandName) {
      case 'ping':
        await interaction.reply({ content: 'pong', embeds: [{ title: 'Latency' }] });
        return;
      case 'slow':
        await interaction.deferReply();
        // A bot's slow work between the deferral and the reply (what the test is about), not a wait for the bot.
        await new Promise((r) => setTimeout(r, 50));
        await interaction.editReply('done after a while');
        return;
      case 'secret':
        await interaction.reply({ content: 'only you', flags: MessageFlags.Ephemeral });
        return;
      case 'warn': {
        const user = interaction.options.getUser('user', true);
        const member = interaction.options.getMember('user') as GuildMember | null;
        const points = interaction.options.getInteger('points') ?? 1;
        await interaction.reply(`warned ${user.username} (${member?.id ?? 'no member'}) for ${points}`);
        return;
      }
    }
  }

  const demo = () => h.sandbox.world.demo;

  it('a member joins: GUILD_MEMBER_ADD reaches the bot and the member count grows', async () => {
    const guild = h.client.guilds.cache.get(demo().guildId);
    assert.ok(guild);
    const before = guild.memberCount;
    const joined = waitForEvent<[GuildMember]>(h.client, Events.GuildMemberAdd, (m) => m.user.username === 'newcomer_1');
    const res = await control<{ id: string }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/members`, {
      username: 'newcomer_1',
      roles: [demo().roles.verified],
    });
    assert.equal(res.status, 201);
    const [member] = await joined;
    assert.equal(member.id, res.body.id);
    assert.ok(member.roles.cache.has(demo().roles.verified));
    assert.equal(guild.memberCount, before + 1);
    const patched = waitForEvent<[GuildMember, GuildMember]>(h.client, Events.GuildMemberUpdate, (_o, n) => n.id === member.id);
    await control(h.sandbox, 'PATCH', `/guilds/${demo().guildId}/members/${member.id}`, { nick: 'Newbie', roles: [demo().roles.member] });
    const [, now] = await patched;
    assert.equal(now.nickname, 'Newbie');
    assert.deepEqual(
      [...now.roles.cache.keys()].filter((id) => id !== guild.id),
      [demo().roles.member],
    );
    const left = waitForEvent<[GuildMember]>(h.client, Events.GuildMemberRemove, (m) => m.id === member.id);
    assert.equal((await control(h.sandbox, 'DELETE', `/guilds/${demo().guildId}/members/${member.id}`)).status, 204);
    await left;
  });

  it('a member posts: MESSAGE_CREATE with content reaches the bot; its reply reaches the sandbox', async () => {
    const received = waitForEvent<[Message]>(h.client, Events.MessageCreate, (m) => m.content === 'hello bot');
    await control(h.sandbox, 'POST', `/channels/${demo().channels.general}/messages`, { authorId: demo().plainMemberId, content: 'hello bot' });
    const [message] = await received;
    assert.equal(message.author.id, demo().plainMemberId);
    await message.reply('hi there');
    const list = await control<Array<{ authorId: string; content: string; bot: boolean }>>(h.sandbox, 'GET', `/channels/${demo().channels.general}/messages`);
    const last = list.body.at(-1);
    assert.equal(last?.content, 'hi there');
    assert.equal(last?.bot, true);
  });

  it('a reaction on an uncached message arrives as a partial', async () => {
    const old = h.sandbox.world.messages.list(demo().channels.general)[0];
    assert.ok(old);
    const reacted = waitForEvent<[MessageReaction, User]>(h.client, Events.MessageReactionAdd, (r) => r.message.id === old.id);
    const res = await control(
      h.sandbox,
      'PUT',
      `/channels/${demo().channels.general}/messages/${old.id}/reactions/${encodeURIComponent('🎉')}/${demo().plainMemberId}`,
    );
    assert.equal(res.status, 204);
    const [reaction, user] = await reacted;
    assert.equal(reaction.message.partial, true);
    assert.equal(reaction.emoji.name, '🎉');
    assert.equal(user.id, demo().plainMemberId);
    const fetched = await reaction.message.fetch();
    assert.equal(fetched.content, old.content);
    const removed = waitForEvent<[MessageReaction, User]>(h.client, Events.MessageReactionRemove, (r) => r.message.id === old.id);
    await control(h.sandbox, 'DELETE', `/channels/${demo().channels.general}/messages/${old.id}/reactions/${encodeURIComponent('🎉')}/${demo().plainMemberId}`);
    await removed;
  });

  it('a slash command reaches the bot and the control API returns its reply', async () => {
    const res = await control<Reply>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: demo().plainMemberId,
      name: 'ping',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.content, 'pong');
    assert.equal(res.body.embeds[0]?.title, 'Latency');
    assert.equal(res.body.ephemeral, false);
    const list = await control<Array<{ id: string }>>(h.sandbox, 'GET', `/channels/${demo().channels.general}/messages`);
    assert.equal(list.body.at(-1)?.id, res.body.messageId);
  });

  it('answers 40060 to a second initial response on the same token', async () => {
    const res = await control<Reply>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: demo().plainMemberId,
      name: 'ping',
    });
    const again = await fetch(`${h.sandbox.apiBase}/v10/interactions/${res.body.interactionId}/${lastToken}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 4, data: { content: 'twice' } }),
    });
    assert.equal(again.status, 400);
    assert.equal(((await again.json()) as { code: number }).code, 40060);
  });

  it('returns the final reply of a deferred command, and ephemeral replies', async () => {
    const slow = await control<Reply>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: demo().plainMemberId,
      name: 'slow',
    });
    assert.equal(slow.body.content, 'done after a while');
    assert.equal(slow.body.deferred, true);
    const secret = await control<Reply>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: demo().plainMemberId,
      name: 'secret',
    });
    assert.equal(secret.body.content, 'only you');
    assert.equal(secret.body.ephemeral, true);
    const list = await control<Array<{ content: string }>>(h.sandbox, 'GET', `/channels/${demo().channels.general}/messages`);
    assert.ok(!list.body.some((m) => m.content === 'only you'));
  });

  it('resolves user options and enforces default_member_permissions', async () => {
    const target = demo().plainMemberId;
    const denied = await control<{ error: string }>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: target,
      name: 'warn',
      options: { user: demo().adminUserId },
    });
    assert.equal(denied.status, 403);
    const res = await control<Reply>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: demo().adminUserId,
      name: 'warn',
      options: { user: target, points: '3' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.content, `warned plain_pat (${target}) for 3`);
  });

  it('answers 404 for an unregistered command and 400 naming the bad field', async () => {
    const unknown = await control<{ error: string; message: string }>(h.sandbox, 'POST', '/interactions', {
      guildId: demo().guildId,
      channelId: demo().channels.general,
      userId: demo().plainMemberId,
      name: 'nope',
    });
    assert.equal(unknown.status, 404);
    assert.ok(unknown.body.message.includes('nope'));
    const bad = await control<{ error: string; fields: Record<string, string> }>(h.sandbox, 'POST', `/guilds/${demo().guildId}/members`, { roles: [] });
    assert.equal(bad.status, 400);
    assert.ok('username' in bad.body.fields);
  });

  it('sends MESSAGE_CREATE without content to a client lacking the MessageContent intent', async () => {
    const other = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages], rest: { api: h.sandbox.apiBase } });
    try {
      const ready = once(other, Events.ClientReady);
      await other.login(h.sandbox.botToken);
      await ready;
      const got = waitForEvent<[Message]>(other, Events.MessageCreate, (m) => m.author.id === demo().plainMemberId);
      await control(h.sandbox, 'POST', `/channels/${demo().channels.general}/messages`, { authorId: demo().plainMemberId, content: 'secret words' });
      const [message] = await got;
      assert.equal(message.content, '');
    } finally {
      await other.destroy();
    }
  });
});
