// Channel webhooks as a bot and a webhook's holder meet them: made with Manage Webhooks (a name with
// "clyde" or "discord" refused, 15 a channel), WEBHOOKS_UPDATE only with GUILD_WEBHOOKS, audit entries,
// executed through discord.js's WebhookClient (name and avatar overrides, allowed_mentions, MESSAGE_CREATE
// with webhook_id), its messages read, edited and deleted by token, and the routes it shares with
// interaction follow-ups still serving interactions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AuditLogEvent,
  DiscordAPIError,
  Events,
  GatewayIntentBits as I,
  PermissionFlagsBits as P,
  WebhookClient,
  type Client,
  type Message,
  type TextChannel,
} from 'discord.js';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { changeBotPermissions, control, waitForEvent } from './helpers';
import { dispatchShapeProblems, nextDispatch, recordDispatches, recordWorldDispatches, startClientWithIntents, type RawDispatch } from './intents-client';

const refusedWith = (code: number) => (error: unknown) => error instanceof DiscordAPIError && error.code === code;
/** The code Discord gave a form field's first error (`errors.<field>._errors[0].code`). */
const fieldErrorCode = (error: DiscordAPIError, field: string) =>
  (error.rawError as { errors?: Record<string, { _errors?: { code: string }[] }> }).errors?.[field]?._errors?.[0]?.code;

describe('channel webhooks', () => {
  let sandbox: Sandbox;
  let bot: Client;
  let blind: Client;
  let blindSaw: RawDispatch[];
  let sent: RawDispatch[];
  const hooks: WebhookClient[] = [];
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
    sent = recordWorldDispatches(sandbox);
    bot = await startClientWithIntents(sandbox, [I.Guilds, I.GuildMessages, I.MessageContent, I.GuildWebhooks, I.GuildModeration]);
    blind = await startClientWithIntents(sandbox, [I.Guilds, I.GuildMessages, I.MessageContent]);
    blindSaw = recordDispatches(blind);
  });
  after(async () => {
    for (const hook of hooks) hook.destroy();
    await bot.destroy();
    await blind.destroy();
    await sandbox.close();
  });

  const general = () => bot.channels.cache.get(sandbox.world.demo.channels.general) as TextChannel;
  const setBotPermissions = (change: (permissions: bigint) => bigint) => changeBotPermissions(sandbox, change);
  const clientOf = (id: string, token: string) => {
    const hook = new WebhookClient({ id, token }, { rest: { api: sandbox.apiBase } });
    hooks.push(hook);
    return hook;
  };
  const raw = (method: string, path: string, body?: unknown) =>
    fetch(`${sandbox.apiBase}/v10${path}`, {
      method,
      ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });

  it('Manage Webhooks makes one: WEBHOOKS_UPDATE with GUILD_WEBHOOKS only, WEBHOOK_CREATE in the audit log; bad names and a 16th are refused', async () => {
    await assert.rejects(general().createWebhook({ name: 'Announcer' }), refusedWith(50013));
    setBotPermissions((p) => p | P.ManageWebhooks);
    const updated = nextDispatch(bot, 'WEBHOOKS_UPDATE');
    const webhook = await general().createWebhook({ name: 'Announcer', reason: 'announcements' });
    assert.equal((await updated).channel_id, general().id);
    assert.equal(webhook.channelId, general().id);
    assert.equal(webhook.owner?.id, sandbox.world.botUserId);
    assert.equal(webhook.applicationId, sandbox.world.applicationId);
    assert.ok(webhook.token);

    const content = `barrier ${Math.random()}`;
    const arrived = waitForEvent(blind, Events.MessageCreate, (message: Message) => message.content === content);
    await control(sandbox, 'POST', `/channels/${general().id}/messages`, { authorId: sandbox.world.demo.plainMemberId, content });
    await arrived;
    assert.equal(
      blindSaw.some((d) => d.t === 'WEBHOOKS_UPDATE'),
      false,
      'no WEBHOOKS_UPDATE without GUILD_WEBHOOKS',
    );

    const logs = await general().guild.fetchAuditLogs({ type: AuditLogEvent.WebhookCreate });
    assert.equal(logs.entries.first()?.targetId, webhook.id);
    assert.equal(logs.entries.first()?.reason, 'announcements');

    for (const name of ['My Discord relay', 'CLYDE']) {
      await assert.rejects(general().createWebhook({ name }), (error: unknown) => {
        assert.ok(error instanceof DiscordAPIError && error.code === 50035);
        assert.equal(fieldErrorCode(error, 'name'), 'USERNAME_INVALID_CONTAINS');
        return true;
      });
    }
    const existing = (await general().fetchWebhooks()).size;
    for (let i = existing; i < 15; i += 1) await general().createWebhook({ name: `Hook ${i}` });
    await assert.rejects(general().createWebhook({ name: 'One too many' }), refusedWith(30007));
    for (const hook of (await general().fetchWebhooks()).values()) if (hook.id !== webhook.id) await hook.delete();
  });

  it('WebhookClient posts under its name or an override, allowed_mentions holds, the bot sees webhook_id; its messages by token', async () => {
    setBotPermissions((p) => p | P.ManageWebhooks);
    const webhook = await general().createWebhook({ name: 'Relay' });
    assert.ok(webhook.token);
    const hook = clientOf(webhook.id, webhook.token);
    const { plainMemberId, adminUserId } = sandbox.world.demo;

    const seen = waitForEvent(bot, Events.MessageCreate, (message: Message) => message.webhookId === webhook.id);
    const sent = await hook.send({
      content: `hi <@${plainMemberId}> and <@${adminUserId}> @everyone`,
      username: 'Night shift',
      allowedMentions: { users: [plainMemberId] },
    });
    const [message] = await seen;
    assert.equal(sent.webhook_id, webhook.id);
    assert.equal(sent.author.id, webhook.id);
    assert.equal(sent.author.username, 'Night shift');
    assert.equal(sent.author.bot, true);
    assert.deepEqual(
      sent.mentions.map((u) => u.id),
      [plainMemberId],
    );
    assert.equal(sent.mention_everyone, false);
    assert.equal(message.author.username, 'Night shift');
    assert.equal(message.member, null, 'a webhook is no member');

    const plain = await hook.send({ content: 'under its own name' });
    assert.equal(plain.author.username, 'Relay');
    const everyone = await hook.send({ content: '@everyone look' });
    assert.equal(everyone.mention_everyone, true, 'a webhook may ping everyone unless allowed_mentions says no');

    assert.equal((await hook.fetchMessage(sent.id)).content, sent.content);
    const edited = waitForEvent(bot, Events.MessageUpdate, (_old: unknown, next: Message) => next.id === sent.id);
    assert.equal((await hook.editMessage(sent.id, { content: 'edited' })).content, 'edited');
    await edited;
    const deleted = waitForEvent(bot, Events.MessageDelete, (gone: Message) => gone.id === sent.id);
    await hook.deleteMessage(sent.id);
    await deleted;
    await assert.rejects(hook.fetchMessage(sent.id), refusedWith(10008));
    // A message that is not the webhook's is not reachable through it.
    const other = await general().send('the bot speaks');
    await assert.rejects(hook.fetchMessage(other.id), refusedWith(10008));

    assert.equal((await raw('POST', `/webhooks/${webhook.id}/${webhook.token}`, { content: 'no wait' })).status, 204);
    assert.equal((await raw('POST', `/webhooks/${webhook.id}/${webhook.token}`, {})).status, 400);
    const badName = await raw('POST', `/webhooks/${webhook.id}/${webhook.token}`, { content: 'x', username: 'discord' });
    assert.equal(((await badName.json()) as { code: number }).code, 50035);
  });

  it('by token: no user in the answer, another token is 50027; by id: moved between channels, renamed and deleted with audit entries', async () => {
    setBotPermissions((p) => p | P.ManageWebhooks);
    const webhook = await general().createWebhook({ name: 'Mover' });
    const byToken = await raw('GET', `/webhooks/${webhook.id}/${webhook.token ?? ''}`);
    const shown = (await byToken.json()) as Record<string, unknown>;
    assert.equal(byToken.status, 200);
    assert.equal('user' in shown, false);
    assert.equal(shown.token, webhook.token);
    const wrong = await raw('GET', `/webhooks/${webhook.id}/not-its-token`);
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { code: number }).code, 50027);

    const renamed = await raw('PATCH', `/webhooks/${webhook.id}/${webhook.token ?? ''}`, { name: 'Renamed by token' });
    assert.equal(((await renamed.json()) as { name: string }).name, 'Renamed by token');

    const welcome = sandbox.world.demo.channels.welcome;
    const left = nextDispatch(bot, 'WEBHOOKS_UPDATE', (d) => d.channel_id === general().id);
    const joined = nextDispatch(bot, 'WEBHOOKS_UPDATE', (d) => d.channel_id === welcome);
    const moved = await webhook.edit({ channel: welcome, name: 'Moved', reason: 'belongs there' });
    await Promise.all([left, joined]);
    assert.equal(moved.channelId, welcome);
    const updates = await general().guild.fetchAuditLogs({ type: AuditLogEvent.WebhookUpdate });
    assert.equal(updates.entries.first()?.reason, 'belongs there');

    // Without the token (discord.js's webhook.delete() would use it): the bot's authority, so an audit entry.
    await bot.deleteWebhook(webhook.id, { reason: 'done' });
    const deletes = await general().guild.fetchAuditLogs({ type: AuditLogEvent.WebhookDelete });
    assert.equal(deletes.entries.first()?.targetId, webhook.id);
    assert.equal((await raw('GET', `/webhooks/${webhook.id}/${webhook.token ?? ''}`)).status, 404);
    await assert.rejects(bot.fetchWebhook(webhook.id), refusedWith(10015));

    setBotPermissions((p) => p & ~P.ManageWebhooks);
    await assert.rejects(general().fetchWebhooks(), refusedWith(50013));
    await assert.rejects(general().guild.fetchWebhooks(), refusedWith(50013));
  });

  it('the follow-up routes still serve interactions: an interaction token under the application id is not a webhook', async () => {
    const { guildId, channels, plainMemberId } = sandbox.world.demo;
    const app = sandbox.world.applicationId;
    await bot.rest.put(`/applications/${app}/guilds/${guildId}/commands`, { body: [{ name: 'ping', description: 'pong' }] });
    const answered = new Promise<void>((resolve) => {
      bot.once(Events.InteractionCreate, async (interaction) => {
        if (!interaction.isChatInputCommand()) return;
        await interaction.reply('pong');
        const followUp = await interaction.followUp('and a follow-up');
        assert.equal(followUp.content, 'and a follow-up');
        resolve();
      });
    });
    const run = await control(sandbox, 'POST', '/interactions', { guildId, channelId: channels.general, userId: plainMemberId, name: 'ping' });
    assert.equal(run.status, 200);
    await answered;
    // An unknown token under the application id is an invalid webhook token, as on Discord (401 50027).
    assert.equal((await raw('POST', `/webhooks/${app}/not-a-token`, { content: 'x' })).status, 401);
  });

  it('every dispatch sent conforms to discord-api-types', () => {
    for (const t of ['WEBHOOKS_UPDATE', 'MESSAGE_CREATE', 'MESSAGE_UPDATE', 'GUILD_AUDIT_LOG_ENTRY_CREATE'])
      assert.ok(
        sent.some((d) => d.t === t),
        t,
      );
    assert.deepEqual(dispatchShapeProblems(sent), []);
  });
});
