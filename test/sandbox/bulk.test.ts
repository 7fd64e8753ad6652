// The control API's bulk post (load tests): a stream, as Discord sends one. Every post reaches a
// connected bot in order, and posting waits while a bot has more than a megabyte unread instead of
// piling every post into the sandbox's memory.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatewayIntentBits as I } from 'discord-api-types/v10';
import { WebSocket } from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { waitFor } from '../helpers/wait';

describe('bulk posts', () => {
  let sandbox: Sandbox;
  let ws: WebSocket;
  /** The {n} of each bulk post that reached the raw bot connection, in arrival order. */
  const arrived: number[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
    ws = new WebSocket(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    let ready = false;
    ws.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as { op: number; t?: string; d?: { content?: string } };
      if (payload.t === 'READY') ready = true;
      const n = /^bulk (\d+)$/.exec(payload.t === 'MESSAGE_CREATE' ? (payload.d?.content ?? '') : '')?.[1];
      if (n) arrived.push(Number(n));
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(
      JSON.stringify({
        op: 2,
        d: { token: sandbox.botToken, intents: I.Guilds | I.GuildMessages | I.MessageContent, properties: { os: 'linux', browser: 'raw', device: 'raw' } },
      }),
    );
    await waitFor(() => ready || null, 5000, 'READY');
  });
  after(async () => {
    ws.close(1000);
    await sandbox.close();
  });

  const bulk = (count: number) =>
    fetch(`${sandbox.url}/_sandbox/channels/${sandbox.world.demo.channels.general}/messages/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count, content: 'bulk {n}' }),
    });

  it('streams every post to the bot, in order, and answers once all are made', async () => {
    arrived.length = 0;
    const response = await bulk(1200);
    assert.equal(response.status, 201);
    assert.equal(((await response.json()) as { count: number }).count, 1200);
    await waitFor(() => arrived.length >= 1200 || null, 10_000, 'every post at the bot');
    assert.deepEqual(
      arrived,
      Array.from({ length: 1200 }, (_, i) => i + 1),
    );
  });

  it('waits while the bot has over a megabyte unread, and goes on once it reads', async () => {
    arrived.length = 0;
    // Counted as made (MESSAGE_CREATE leaves the world), not as kept: the channel keeps its last 1,000.
    let made = 0;
    const count = (event: { dispatch: { t: string } }) => void (event.dispatch.t === 'MESSAGE_CREATE' && (made += 1));
    sandbox.world.events.on('dispatch', count);
    try {
      ws.pause();
      const response = bulk(20_000);
      // 20,000 posts are about 20 MB: far more than the socket's buffers and the megabyte allowed.
      // The barrier: posting has stalled (polled: nothing made in 250 ms; the sandbox gives up waiting after 10 s).
      // Had it not waited, it would stall only once all 20,000 are made.
      const stalled = async () => {
        const before = made;
        await new Promise((resolve) => setTimeout(resolve, 250));
        return made > 0 && made === before;
      };
      await waitFor(stalled, 8000, 'posting to wait for the bot');
      const meanwhile = made;
      assert.ok(meanwhile < 20_000, `${meanwhile} of 20,000 posted while the bot read nothing`);
      ws.resume();
      assert.equal((await response).status, 201);
      assert.equal(made, 20_000);
      await waitFor(() => arrived.length >= 20_000 || null, 20_000, 'every post at the bot');
    } finally {
      sandbox.world.events.off('dispatch', count);
    }
  });
});
