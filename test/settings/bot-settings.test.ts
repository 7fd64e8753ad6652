// Bot Settings take effect in Discord, through the sandbox: the display name is the bot's
// nickname, the status message its presence (owner only), the prefix serves text commands with
// the same functions as slash commands, the rate limit holds for both, the footer is on every
// embed, a switched-off feature's commands say so, and notifications reach the log channel.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DiscordRefused } from '../../src/core/errors';
import type { Feature } from '../../src/core/feature';
import { COMMAND_FAILED_MESSAGE } from '../../src/bot/dispatch';
import { FEATURES } from '../../src/features';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildMember } from '../factories';

/** Commands of a feature that exists only in this test, to exercise the dispatcher's rules. */
const probe: Feature = {
  name: 'probe',
  commands: [
    {
      name: 'coinflip',
      description: 'An economy command',
      feature: 'economy',
      async run() {
        return 'heads';
      },
    },
    {
      name: 'refused',
      description: 'Discord refuses it',
      async run() {
        throw new DiscordRefused(50013, "AwesomeBot's highest role is below Senior Staff. Move the AwesomeBot role above it in Server Settings → Roles.");
      },
    },
    {
      name: 'broken',
      description: 'A bug',
      async run() {
        throw new Error('boom');
      },
    },
    {
      name: 'card',
      description: 'Answers with an embed',
      options: [{ type: 'integer', name: 'count', description: 'how many', required: true, min: 1, max: 5 }],
      async run({ options }) {
        return { embeds: [{ title: `You drew ${String(options.get('count'))}` }] };
      },
    },
  ],
};

const h = useHarness({}, { features: [...FEATURES, probe] });

async function saveAsAdmin(body: object) {
  const admin = await h().signIn(h().demo.adminUserId);
  const response = await admin.put(`/api/servers/${h().guildId}/settings`, body);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

/** Posts in #general as a member and waits for the bot's reply to it. */
const say = (userId: string, content: string) => h().say(userId, content);

describe('display name and status message', () => {
  test('the display name becomes the bot nickname in this server, and the default clears it', async () => {
    await saveAsAdmin({ displayName: 'Helper Bot' });
    const bot = () => h().world.requireGuild(h().guildId).members.get(h().world.botUserId);
    assert.equal(bot()?.nick, 'Helper Bot');
    await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.members.me?.nickname === 'Helper Bot', 5000, 'the bot to see its nickname');
    await saveAsAdmin({ displayName: 'AwesomeBot' });
    assert.equal(bot()?.nick, null);
  });

  test("the status message is the bot's presence, changed only by the application's owner; others see why not", async () => {
    const url = `/api/servers/${h().guildId}/settings`;
    const owner = await h().signIn(h().demo.adminUserId);
    assert.equal((await owner.get(url)).body.statusEditable, true);
    await owner.put(url, { statusMessage: 'Serving the sandbox' }).expect(200);
    await waitFor(() => h().world.botPresence?.activities[0]?.state === 'Serving the sandbox', 5000, 'the presence update');

    const manager = await buildAccount(h(), { roleIds: [h().demo.roles.moderator] });
    const view = (await manager.session.get(url).expect(200)).body;
    assert.equal(view.statusEditable, false);
    assert.match(view.statusLockedReason, /only the bot's owner can change it/);
    assert.equal(view.statusMessage, 'Serving the sandbox');
    const refused = await manager.session.put(url, { statusMessage: 'Hijacked' }).expect(400);
    assert.match(refused.body.fields.statusMessage, /only the bot's owner/);
    await manager.session.put(url, { statusMessage: 'Serving the sandbox', xpCooldown: 50 }).expect(200);
    assert.equal(h().world.botPresence?.activities[0]?.state, 'Serving the sandbox');
  });
});

describe('text commands and the rules every command follows', () => {
  test('a text command with the prefix runs the same command as the slash command; a new prefix applies to the next message', async () => {
    const { userId } = await buildMember(h());
    const slash = await h().slash(userId, 'ping');
    assert.match(slash.body.content, /^Pong!/);
    assert.match((await say(userId, '!ping')).content, /^Pong!/);

    await saveAsAdmin({ commandPrefix: '?' });
    const general = h().demo.channels.general;
    const before = (await h().messages(general)).length;
    await h().control('POST', `/channels/${general}/messages`, { authorId: userId, content: '!ping' });
    const reply = await say(userId, '?ping');
    assert.match(reply.content, /^Pong!/);
    assert.deepEqual(reply.pinged, { users: [], roles: [], everyone: false }, 'a text reply pings nobody');
    const after = (await h().messages(general)).slice(before);
    assert.equal(after.filter((message) => message.bot).length, 1, 'the old prefix is no longer answered');
    await saveAsAdmin({ commandPrefix: '!' });
  });

  test('a prefix nobody can type, stored before it was refused, falls back to the default instead of silencing text commands', async () => {
    const { userId } = await buildMember(h());
    const { GuildSettings } = h().product.store.models;
    const guildId = h().guildId;
    const row = await GuildSettings.findByPk(guildId);
    const data = (row?.data ?? {}) as { values?: Record<string, unknown> };
    const write = async (values: Record<string, unknown>) => {
      await GuildSettings.upsert({ guildId, data: { ...data, values }, version: row?.version ?? 0, updatedAt: h().product.services.clock.now() });
      h().product.services.settings.invalidate(guildId);
    };
    await write({ ...data.values, commandPrefix: 'a\u0000' });
    try {
      assert.match((await say(userId, '!ping')).content, /^Pong!/);
    } finally {
      await write({ ...data.values });
    }
  });

  test('text options are parsed and validated like slash options, naming the option', async () => {
    const { userId } = await buildMember(h());
    assert.equal((await say(userId, '!card 3')).embeds[0]?.title, 'You drew 3');
    const wrong = await say(userId, '!card nine');
    assert.equal(wrong.content, 'count must be a whole number. Usage: !card <count>');
    const high = await say(userId, '!card 9');
    assert.equal(high.content, 'count must be at most 5. Usage: !card <count>');
    const missing = await say(userId, '!card');
    assert.equal(missing.content, 'count is required. Usage: !card <count>');
  });

  test('the rate limit holds per member for slash and text commands together, and says when to try again', async () => {
    await saveAsAdmin({ rateLimitPerMinute: 2 });
    const { userId } = await buildMember(h());
    const other = await buildMember(h());
    assert.match((await h().slash(userId, 'ping')).body.content, /^Pong!/);
    assert.match((await say(userId, '!ping')).content, /^Pong!/);
    const limited = await h().slash(userId, 'ping');
    assert.match(limited.body.content, /^You're using commands too quickly\. Try again in \d+ seconds?\.$/);
    assert.equal(limited.body.ephemeral, true);
    assert.match((await say(userId, '!ping')).content, /^You're using commands too quickly/);
    assert.match((await h().slash(other.userId, 'ping')).body.content, /^Pong!/, 'another member is not limited');
    await saveAsAdmin({ rateLimitPerMinute: 60 });
  });

  test("a switched-off feature's commands answer that it is off, in chat and as slash commands", async () => {
    const { userId } = await buildMember(h());
    assert.equal((await h().slash(userId, 'coinflip')).body.content, 'heads');
    await saveAsAdmin({ economyEnabled: false });
    const off = await h().slash(userId, 'coinflip');
    assert.equal(off.body.content, 'The economy is turned off in this server.');
    assert.equal(off.body.ephemeral, true);
    assert.equal((await say(userId, '!coinflip')).content, 'The economy is turned off in this server.');
    await saveAsAdmin({ economyEnabled: true });
  });

  test("Discord's refusal reaches the member in words and the log channel as an error; only a real bug says 'Something went wrong'", async () => {
    await saveAsAdmin({ logChannelId: h().demo.channels.modLog, notifyErrors: true });
    const { userId } = await buildMember(h());
    const alert = h().waitForMessage(h().demo.channels.modLog, (message) => message.bot && message.embeds[0]?.title === '/refused could not finish');
    const refused = await h().slash(userId, 'refused');
    assert.match(refused.body.content, /^AwesomeBot's highest role is below Senior Staff/);
    assert.equal(refused.body.ephemeral, true);
    assert.match((await alert).embeds[0]?.description ?? '', /Move the AwesomeBot role above it/);
    await saveAsAdmin({ logChannelId: null });
    assert.equal((await h().slash(userId, 'broken')).body.content, COMMAND_FAILED_MESSAGE);
  });

  test('the custom footer is on every embed the bot posts in the server, replies and notifications alike', async () => {
    await saveAsAdmin({ embedFooter: 'Sandbox Community · be kind', logChannelId: h().demo.channels.modLog, notifyJoinLeave: true });
    const { userId } = await buildMember(h());
    const card = await h().slash(userId, 'card', { count: 2 });
    assert.equal(card.status, 200, JSON.stringify(card.body));
    assert.equal(card.body.embeds[0]?.footer?.text, 'Sandbox Community · be kind');
    const joined = h().waitForMessage(h().demo.channels.modLog, (message) => message.bot && message.embeds[0]?.title === 'Member joined');
    const newcomer = await buildMember(h(), { username: 'footer_newcomer' });
    const notification = await joined;
    assert.equal(notification.embeds[0]?.footer?.text, 'Sandbox Community · be kind');
    assert.match(notification.embeds[0]?.description ?? '', /footer_newcomer joined/);
    assert.ok(newcomer.userId);
    await saveAsAdmin({ embedFooter: null, notifyJoinLeave: false, logChannelId: null });
  });
});
