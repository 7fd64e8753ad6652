// The gateway holds a client to Discord's rules, so a bot that breaks them fails here first:
// heartbeats (4009), identify before anything else (4003), known opcodes (4001), valid and allowed
// intents (4013, 4014), at most 120 sends a minute (4008); and op 7 on request. A malformed
// payload closes its own connection with Discord's code (4002, 4005, 4004, 4010, 4007, 4012), a
// defect while handling one with 4000: never the process that hosts the sandbox.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Events, GatewayIntentBits } from 'discord.js';
import { pino } from 'pino';
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
    const opened = Date.now();
    const beat = setInterval(() => client.send({ op: 1, d: null }), 150);
    // The barrier: acknowledgements of heartbeats sent over four intervals (1.2 s), not a sleep.
    const acks = () => client.received.filter((payload) => payload.op === 11).length;
    await until(() => acks() >= 8 || client.ws.readyState !== WebSocket.OPEN);
    clearInterval(beat);
    assert.ok(Date.now() - opened >= 1200, 'four heartbeat intervals went by');
    assert.equal(client.ws.readyState, WebSocket.OPEN, 'still connected');
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

/** What one raw connection is closed with after sending `frames` (objects as JSON, strings as they are), after an IDENTIFY when `identified`. */
async function closedWith(sandbox: Sandbox, frames: (object | string)[], options: { identified?: boolean; query?: string } = {}): Promise<number> {
  const ws = new WebSocket(`${sandbox.gatewayUrl}${options.query ?? '?v=10&encoding=json'}`);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => ws.on('message', (raw) => (JSON.parse(raw.toString()) as { t?: string }).t === 'READY' && resolve()));
  ws.on('error', () => undefined);
  await new Promise<void>((resolve) => ws.on('open', () => resolve()));
  if (options.identified) {
    ws.send(
      JSON.stringify({
        op: 2,
        d: { token: sandbox.botToken, intents: GatewayIntentBits.Guilds, properties: { os: 'linux', browser: 'test', device: 'test' } },
      }),
    );
    await ready;
  }
  for (const frame of frames) ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  return closed;
}

describe('gateway: malformed frames close their connection, never the process', () => {
  let sandbox: Sandbox;
  let bot: ReturnType<typeof createBotClient>;
  const logged: { level: number; msg: string; err?: { message: string } }[] = [];
  before(async () => {
    const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) });
    sandbox = await startSandbox({ port: 0, memberCount: 30, logger });
    bot = createBotClient({ api: sandbox.apiBase, cdn: sandbox.cdnBase });
    const ready = waitForEvent(bot, Events.ClientReady);
    await bot.login(sandbox.botToken);
    await ready;
  });
  after(async () => {
    await bot.destroy();
    await sandbox.close();
  });

  const properties = { os: 'linux', browser: 'test', device: 'test' };
  const identifyWith = (d: object) => ({ op: 2, d: { token: sandbox.botToken, intents: GatewayIntentBits.Guilds, properties, ...d } });
  const presence = { since: null, activities: [{ name: 'x', type: 0 }], status: 'online', afk: false };

  it('closes 4002 for a payload that is not what its opcode requires', async () => {
    const before: [string, object | string][] = [
      ['IDENTIFY with d null', { op: 2, d: null }],
      ['IDENTIFY without d', { op: 2 }],
      ['IDENTIFY with d a string', { op: 2, d: 'identify' }],
      ['IDENTIFY with intents a string', identifyWith({ intents: String(GatewayIntentBits.Guilds) })],
      ['IDENTIFY without properties', { op: 2, d: { token: sandbox.botToken, intents: 1 } }],
      ['IDENTIFY with a token that is not a string', identifyWith({ token: 42 })],
      ['IDENTIFY with a presence missing its activities', identifyWith({ presence: { since: null, status: 'online', afk: false } })],
      ['RESUME with d empty', { op: 6, d: {} }],
      ['RESUME with seq not a number', { op: 6, d: { token: sandbox.botToken, session_id: 'abc', seq: '3' } }],
      ['HEARTBEAT with d a string', { op: 1, d: 'beat' }],
      ['text that is not JSON', '{"op":'],
      ['JSON null', 'null'],
      ['a number', '5'],
      ['an opcode that is a string', { op: '2', d: null }],
      ['a payload over 4096 bytes', identifyWith({ properties: { ...properties, device: 'x'.repeat(5000) } })],
    ];
    for (const [what, frame] of before) assert.equal(await closedWith(sandbox, [frame]), 4002, what);
    const identified: [string, object][] = [
      ['REQUEST_GUILD_MEMBERS with d null', { op: 8, d: null }],
      ['REQUEST_GUILD_MEMBERS with neither query nor user_ids', { op: 8, d: { guild_id: sandbox.world.demo.guildId } }],
      ['REQUEST_GUILD_MEMBERS with a guild id that is not a snowflake', { op: 8, d: { guild_id: 'general', query: '', limit: 0 } }],
      ['PRESENCE_UPDATE without activities', { op: 3, d: { since: null, status: 'online', afk: false } }],
      ['PRESENCE_UPDATE with activities not an array', { op: 3, d: { ...presence, activities: 'playing' } }],
      ['PRESENCE_UPDATE with an unknown status', { op: 3, d: { ...presence, status: 'busy' } }],
      ['PRESENCE_UPDATE without afk', { op: 3, d: { since: null, activities: [], status: 'online' } }],
      ['VOICE_STATE_UPDATE without channel_id', { op: 4, d: { guild_id: sandbox.world.demo.guildId, self_mute: false, self_deaf: false } }],
      ['REQUEST_SOUNDBOARD_SOUNDS without guild_ids', { op: 31, d: {} }],
    ];
    for (const [what, frame] of identified) assert.equal(await closedWith(sandbox, [frame], { identified: true }), 4002, what);
  });

  it(
    'answers as Discord does: 4005 for a second IDENTIFY or a RESUME after it, 4004 for a wrong token, 4010 for an invalid shard, 4007 for a seq ' +
      'never sent, 4012 for another version',
    async () => {
      assert.equal(await closedWith(sandbox, [identifyWith({})], { identified: true }), 4005);
      assert.equal(await closedWith(sandbox, [{ op: 6, d: { token: sandbox.botToken, session_id: 'abc', seq: 1 } }], { identified: true }), 4005);
      assert.equal(await closedWith(sandbox, [identifyWith({ token: 'Bot not-the-token' })]), 4004);
      assert.equal(await closedWith(sandbox, [identifyWith({ shard: [1, 1] })]), 4010);
      assert.equal(await closedWith(sandbox, [identifyWith({ shard: [0, 0] })]), 4010);
      assert.equal(await closedWith(sandbox, [], { query: '?v=9&encoding=json' }), 4012);

      // A session that sent a few events: resuming it from a later seq than it sent is 4007.
      const first = connect(sandbox);
      await first.opened;
      first.send(identifyWith({}));
      await until(() => first.received.some((payload) => payload.t === 'READY'));
      const sessionId = (first.received.find((payload) => payload.t === 'READY')?.d as { session_id: string }).session_id;
      first.ws.close(4000);
      await first.closed;
      assert.equal(await closedWith(sandbox, [{ op: 6, d: { token: sandbox.botToken, session_id: sessionId, seq: 1_000_000 } }]), 4007);
    },
  );

  it('valid payloads of every opcode pass: a presence, a voice state, a members request by ids with a nonce', async () => {
    const client = connect(sandbox);
    await client.opened;
    client.send(identifyWith({ presence, large_threshold: 50, compress: false, shard: [0, 1] }));
    client.send({ op: 3, d: { since: null, activities: [{ name: 'Custom Status', type: 4, state: 'Testing' }], status: 'idle', afk: false } });
    client.send({ op: 4, d: { guild_id: sandbox.world.demo.guildId, channel_id: null, self_mute: false, self_deaf: false } });
    client.send({ op: 8, d: { guild_id: sandbox.world.demo.guildId, user_ids: [sandbox.world.demo.adminUserId], limit: 0, nonce: 'n1' } });
    client.send({ op: 1, d: 1 });
    await until(() => client.received.some((payload) => payload.t === 'GUILD_MEMBERS_CHUNK') && client.received.some((payload) => payload.op === 11));
    const chunk = client.received.find((payload) => payload.t === 'GUILD_MEMBERS_CHUNK')?.d as { nonce?: string; members: unknown[] };
    assert.equal(chunk.nonce, 'n1');
    assert.equal(chunk.members.length, 1);
    assert.equal(sandbox.world.botPresence?.activities[0]?.state, 'Testing');
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    client.ws.close(1000);
    await client.closed;
  });

  it('a frame that breaks the WebSocket protocol (unmasked) closes that connection with 1002, and one over 64 KB with 1009', async () => {
    const { port } = new URL(sandbox.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let bytes = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      // After the handshake's answer, a text frame a client sent without a mask.
      if (bytes.includes('\r\n\r\n') && !socket.writableEnded) socket.end(Buffer.from([0x81, 0x02, 0x68, 0x69]));
    });
    socket.write(
      `GET /gateway?v=10&encoding=json HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ` +
        `${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    await new Promise((resolve) => socket.on('close', resolve));
    const frames = bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
    const close = frames.subarray(frames.lastIndexOf(0x88));
    assert.equal(close.readUInt16BE(2), 1002, 'a close frame with 1002 (protocol error)');

    assert.equal(await closedWith(sandbox, ['x'.repeat(100 * 1024)]), 1009);
  });

  it('a defect while handling a payload closes that connection with 4000 and is logged; the others carry on', async () => {
    const { world } = sandbox;
    const botUser = world.botUser.bind(world);
    world.botUser = () => {
      throw new Error('a defect');
    };
    try {
      assert.equal(await closedWith(sandbox, [identifyWith({})]), 4000);
      assert.deepEqual(
        logged.map((entry) => entry.err?.message),
        ['a defect'],
      );
    } finally {
      world.botUser = botUser;
    }
  });

  it('after all of it the sandbox serves: the connected bot still gets events, and a new client identifies', async () => {
    const joined = waitForEvent(bot, Events.GuildMemberAdd, (member: { user: { username: string } }) => member.user.username === 'after_malformed');
    sandbox.world.addMember(sandbox.world.demo.guildId, { username: 'after_malformed' });
    await joined;
    const client = connect(sandbox);
    await client.opened;
    client.send(identifyWith({}));
    await until(() => client.received.some((payload) => payload.t === 'READY'));
    client.ws.close(1000);
    await client.closed;
  });
});

/** Waits until `check` holds, failing after 5 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
