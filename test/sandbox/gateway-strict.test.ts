// The gateway holds a client to Discord's rules, so a bot that breaks them fails here first:
// heartbeats (4009), identify before anything else (4003), known opcodes (4001), valid and allowed
// intents (4013, 4014), at most 120 sends a minute (4008); and op 7 on request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Events, GatewayIntentBits } from 'discord.js';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createBotClient } from '../../src/bot/client';
import { control, waitForEvent } from './helpers';

/** A raw gateway connection: its messages, and its close code once closed. */
function connect(sandbox: Sandbox) {
  const ws = new WebSocket(`${sandbox.gatewayUrl}?v=10&encoding=json`);
  const received: { op: number; t?: string | null; d?: unknown }[] = [];
  ws.on('message', (raw) => received.push(JSON.parse(raw.toString()) as { op: number }));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const opened = new Promise<void>((resolve) => ws.on('open', () => resolve()));
  return { ws, received, closed, opened, send: (payload: object) => ws.send(JSON.stringify(payload)) };
}

describe('gateway strictness', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 30, heartbeatIntervalMs: 300 });
  });
  after(() => sandbox.close());

  const identify = (intents: number) => ({ op: 2, d: { token: sandbox.botToken, intents, properties: { os: 'linux', browser: 'test', device: 'test' } } });

  it('says HELLO with its interval, and closes 4009 when no heartbeat comes', async () => {
    const client = connect(sandbox);
    await client.opened;
    assert.equal(await client.closed, 4009);
    assert.deepEqual(client.received[0], { op: 10, d: { heartbeat_interval: 300 }, s: null, t: null });
  });

  it('a heartbeating client stays connected past the interval', async () => {
    const client = connect(sandbox);
    await client.opened;
    const beat = setInterval(() => client.send({ op: 1, d: null }), 150);
    await new Promise((resolve) => setTimeout(resolve, 1800));
    clearInterval(beat);
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    assert.ok(client.received.some((payload) => payload.op === 11), 'heartbeats are acknowledged');
    client.ws.close(1000);
  });

  it('closes 4003 for a payload before IDENTIFY and 4001 for an unknown opcode', async () => {
    const early = connect(sandbox);
    await early.opened;
    early.send({ op: 8, d: { guild_id: sandbox.world.demo.guildId, query: '', limit: 0 } });
    assert.equal(await early.closed, 4003);
    const unknown = connect(sandbox);
    await unknown.opened;
    unknown.send({ op: 99, d: {} });
    assert.equal(await unknown.closed, 4001);
    const later = connect(sandbox);
    await later.opened;
    later.send(identify(GatewayIntentBits.Guilds));
    later.send({ op: 42, d: {} });
    assert.equal(await later.closed, 4001);
  });

  it('closes 4013 for intents that do not exist and 4014 for a privileged intent the application lacks', async () => {
    const invalid = connect(sandbox);
    await invalid.opened;
    invalid.send(identify(1 << 30));
    assert.equal(await invalid.closed, 4013);
    const disallowed = connect(sandbox);
    await disallowed.opened;
    disallowed.send(identify(GatewayIntentBits.Guilds | GatewayIntentBits.GuildPresences));
    assert.equal(await disallowed.closed, 4014);
  });

  it('closes 4008 past 120 sends a minute', async () => {
    const client = connect(sandbox);
    await client.opened;
    for (let i = 0; i < 125; i += 1) client.send({ op: 1, d: null });
    assert.equal(await client.closed, 4008);
  });

  it('a bot asked to reconnect (op 7) resumes and misses nothing', async () => {
    const client = createBotClient({ api: sandbox.apiBase, cdn: sandbox.cdnBase });
    try {
      const ready = waitForEvent(client, Events.ClientReady);
      await client.login(sandbox.botToken);
      await ready;
      const resumed = waitForEvent(client, Events.ShardResume);
      assert.equal((await control(sandbox, 'POST', '/faults', { reconnect: true })).status, 204);
      await resumed;
      const joined = waitForEvent(client, Events.GuildMemberAdd, (member: { user: { username: string } }) => member.user.username === 'after_reconnect');
      sandbox.world.addMember(sandbox.world.demo.guildId, { username: 'after_reconnect' });
      await joined;
    } finally {
      await client.destroy();
    }
  });
});
