import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Events, type GuildMember, type Message, type TextChannel } from 'discord.js';
import { control, startBotHarness, waitForEvent, type BotHarness } from './helpers';

describe('faults: gateway drops and REST storms', () => {
  let h: BotHarness;
  before(async () => {
    h = await startBotHarness();
  });
  after(async () => {
    await h.close();
  });
  const demo = () => h.sandbox.world.demo;

  it('resumes after a dropped gateway and replays the events sent meanwhile', async () => {
    const seen: string[] = [];
    const onMessage = (m: Message) => {
      if (m.author.id === demo().plainMemberId) seen.push(m.content);
    };
    h.client.on(Events.MessageCreate, onMessage);
    const resumed = waitForEvent(h.client, Events.ShardResume);
    assert.equal((await control(h.sandbox, 'POST', '/faults', { dropGateway: true })).status, 204);
    // These go out while the bot is disconnected; they must be replayed on RESUME.
    for (let i = 0; i < 5; i++) {
      await control(h.sandbox, 'POST', `/channels/${demo().channels.general}/messages`, { authorId: demo().plainMemberId, content: `missed ${i}` });
    }
    const joined = waitForEvent<[GuildMember]>(h.client, Events.GuildMemberAdd, (m) => m.user.username === 'while_away');
    await control(h.sandbox, 'POST', `/guilds/${demo().guildId}/members`, { username: 'while_away' });
    await resumed;
    // The barrier: the join was made after the messages, and the replay keeps Discord's order.
    await joined;
    h.client.off(Events.MessageCreate, onMessage);
    assert.deepEqual(seen, ['missed 0', 'missed 1', 'missed 2', 'missed 3', 'missed 4']);
  });

  it('waits out a 429 storm and the message still gets through', async () => {
    const channel = (await h.client.channels.fetch(demo().channels.general)) as TextChannel;
    const limited: unknown[] = [];
    h.client.rest.on('rateLimited', (info) => limited.push(info));
    await control(h.sandbox, 'POST', '/faults', { route: 'POST /channels/:id/messages', status: 429, count: 3, retryAfter: 0.1 });
    const started = Date.now();
    const sent = await channel.send('after the storm');
    assert.ok(Date.now() - started >= 250, 'discord.js waited for Retry-After');
    assert.equal(h.sandbox.world.messages.get(sent.id)?.content, 'after the storm');
    assert.ok(limited.length >= 1);
  });

  it('retries 5xx answers transparently', async () => {
    await control(h.sandbox, 'POST', '/faults', { route: 'GET /guilds/:id/roles', status: 503, count: 2 });
    const roles = await h.client.guilds.cache.get(demo().guildId)?.roles.fetch();
    assert.ok(roles && roles.size > 5);
  });

  it('puts rate-limit headers on every REST answer, errors included', async () => {
    const ok = await fetch(`${h.sandbox.apiBase}/v10/gateway`);
    const denied = await fetch(`${h.sandbox.apiBase}/v10/users/@me`);
    for (const res of [ok, denied]) {
      for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-reset-after', 'x-ratelimit-bucket']) {
        assert.ok(res.headers.get(header), `${header} on ${res.status}`);
      }
    }
    assert.equal(denied.status, 401);
    assert.deepEqual(await denied.json(), { message: '401: Unauthorized', code: 0 });
  });

  it('rejects a malformed fault with 400 naming the field', async () => {
    const res = await control<{ fields: Record<string, string> }>(h.sandbox, 'POST', '/faults', { route: 'GET /x', status: 418, count: 1 });
    assert.equal(res.status, 400);
  });
});
