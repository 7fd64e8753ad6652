// Rate limits that bite as Discord's do: a bucket per route and channel or guild, the global cap
// per token, real 429s with Discord's headers that change nothing, and discord.js waiting them out.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { once } from 'node:events';
import { Events, RESTEvents, type TextChannel } from 'discord.js';
import { createBotClient } from '../../src/bot/client';
import { DISCORD_RATE_LIMITS, startSandbox, type Sandbox } from '../../src/sandbox';

describe("Discord's rate limits", () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 10 });
  });
  after(() => sandbox.close());
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${sandbox.apiBase}/v10${path}`, {
      ...init,
      headers: { authorization: `Bot ${sandbox.botToken}`, 'content-type': 'application/json', ...init.headers },
    });
  const post = (channelId: string, content: string) => api(`/channels/${channelId}/messages`, { method: 'POST', body: JSON.stringify({ content }) });

  it('five messages per five seconds per channel: the sixth is a 429 with the headers, and is not posted', async () => {
    const { general, welcome } = sandbox.world.demo.channels;
    const before = sandbox.world.messages.list(general).length;
    for (let i = 1; i <= 5; i += 1) {
      const ok = await post(general, `burst ${i}`);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('x-ratelimit-limit'), '5');
      assert.equal(ok.headers.get('x-ratelimit-remaining'), String(5 - i));
      assert.ok(Number(ok.headers.get('x-ratelimit-reset-after')) <= 5);
    }
    const refused = await post(general, 'burst 6');
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as { message: string; retry_after: number; global: boolean };
    assert.equal(body.message, 'You are being rate limited.');
    assert.equal(body.global, false);
    assert.ok(body.retry_after > 0 && body.retry_after <= 5, `retry_after ${body.retry_after}`);
    assert.equal(refused.headers.get('retry-after'), String(Math.ceil(body.retry_after)));
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('x-ratelimit-scope'), 'user');
    assert.equal(refused.headers.get('x-ratelimit-global'), null);
    assert.ok(refused.headers.get('x-ratelimit-bucket'));
    assert.equal(sandbox.world.messages.list(general).length, before + 5, 'the refused message was not posted');
    assert.equal((await post(welcome, 'another channel, another bucket')).status, 200);
    assert.ok(sandbox.rateLimited.bucket >= 1);
  });

  it('the global cap: 50 requests a second per token across routes, answered with X-RateLimit-Global', async () => {
    const fresh = await startSandbox({ port: 0, memberCount: 10 });
    try {
      const get = (path: string) => fetch(`${fresh.apiBase}/v10${path}`, { headers: { authorization: `Bot ${fresh.botToken}` } });
      // Two routes, 25 each: no bucket runs out, but together they reach the global cap.
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => get(i % 2 ? '/users/@me' : '/gateway/bot')));
      assert.ok(answers.every((a) => a.status === 200));
      const over = await get(`/guilds/${fresh.world.demo.guildId}`);
      assert.equal(over.status, 429);
      assert.equal(over.headers.get('x-ratelimit-global'), 'true');
      assert.equal(over.headers.get('x-ratelimit-scope'), 'global');
      assert.equal(((await over.json()) as { global: boolean }).global, true);
      assert.equal(fresh.rateLimited.global, 1);
    } finally {
      await fresh.close();
    }
  });

  it('discord.js reads the headers and waits: a burst of twelve arrives whole and in order, without one 429', async () => {
    // A time-compressed table (5 messages per 500 ms) so the test waits a second, not ten.
    const fast = await startSandbox({
      port: 0,
      memberCount: 10,
      rateLimits: { ...DISCORD_RATE_LIMITS, routes: { ...DISCORD_RATE_LIMITS.routes, 'POST /channels/:channelId/messages': { limit: 5, windowMs: 500 } } },
    });
    const client = createBotClient({ api: fast.apiBase, cdn: fast.cdnBase });
    try {
      const ready = once(client, Events.ClientReady);
      await client.login(fast.botToken);
      await ready;
      let waited = 0;
      client.rest.on(RESTEvents.RateLimited, () => (waited += 1));
      const channel = client.channels.cache.get(fast.world.demo.channels.general) as TextChannel;
      const sent = await Promise.all(Array.from({ length: 12 }, (_, i) => channel.send(`queued ${i + 1}`)));
      assert.equal(sent.length, 12);
      const contents = fast.world.messages
        .list(channel.id)
        .filter((m) => m.authorId === fast.world.botUserId)
        .map((m) => m.content);
      assert.deepEqual(
        contents.slice(-12),
        Array.from({ length: 12 }, (_, i) => `queued ${i + 1}`),
      );
      assert.deepEqual(fast.rateLimited, { bucket: 0, global: 0 });
      assert.ok(waited >= 1, 'discord.js saw the bucket run out and waited');
    } finally {
      await client.destroy();
      await fast.close();
    }
  });

  it("'relaxed' keeps the headers but not the limits", async () => {
    const relaxed = await startSandbox({ port: 0, memberCount: 10, rateLimits: 'relaxed' });
    try {
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          fetch(`${relaxed.apiBase}/v10/channels/${relaxed.world.demo.channels.general}/messages`, {
            method: 'POST',
            headers: { authorization: `Bot ${relaxed.botToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `load ${i}` }),
          }),
        ),
      );
      assert.ok(answers.every((a) => a.status === 200 && a.headers.get('x-ratelimit-remaining') !== null));
      assert.deepEqual(relaxed.rateLimited, { bucket: 0, global: 0 });
    } finally {
      await relaxed.close();
    }
  });
});
