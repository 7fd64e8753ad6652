// A RESUME replays what the session missed only while the session still holds it: the sandbox, as
// Discord, keeps a bounded number of dispatches per session, and a resume from before them fails
// with op 9 (not resumable) instead of resuming with events silently missing, so the client
// identifies anew and knows it has a gap to catch up on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatewayIntentBits as I } from 'discord-api-types/v10';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { waitFor } from '../helpers/wait';

type Payload = { op: number; t?: string | null; s?: number | null; d?: unknown };

describe('the RESUME window', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20, replayBuffer: 5 });
  });
  after(() => sandbox.close());

  /** A raw connection that identified: its session id and the last sequence it saw; closed with 4000 (resumable). */
  async function session(): Promise<{ sessionId: string; seq: number }> {
    const ws = new WebSocket(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    const received: Payload[] = [];
    ws.on('message', (raw) => received.push(JSON.parse(raw.toString()) as Payload));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(
      JSON.stringify({
        op: 2,
        d: { token: sandbox.botToken, intents: I.Guilds | I.GuildMessages, properties: { os: 'linux', browser: 'raw', device: 'raw' } },
      }),
    );
    const ready = await waitFor(() => received.find((payload) => payload.t === 'READY') ?? null, 5000, 'READY');
    await waitFor(() => received.some((payload) => payload.t === 'GUILD_CREATE') || null, 5000, 'the guilds');
    const seq = Math.max(...received.map((payload) => payload.s ?? 0));
    ws.close(4000);
    await new Promise((resolve) => ws.once('close', resolve));
    return { sessionId: (ready.d as { session_id: string }).session_id, seq };
  }

  /** Resumes `sessionId` from `seq` on a new connection; what the sandbox answers. */
  async function resume(sessionId: string, seq: number): Promise<Payload[]> {
    const ws = new WebSocket(`${sandbox.gatewayUrl}?v=10&encoding=json`);
    const received: Payload[] = [];
    ws.on('message', (raw) => received.push(JSON.parse(raw.toString()) as Payload));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ op: 6, d: { token: sandbox.botToken, session_id: sessionId, seq } }));
    await waitFor(() => received.some((payload) => payload.op === 9 || payload.t === 'RESUMED') || null, 5000, 'an answer to RESUME');
    ws.close(1000);
    return received;
  }

  const post = (n: number) => {
    for (let i = 0; i < n; i += 1)
      sandbox.world.messages.create(sandbox.world.demo.channels.general, { authorId: sandbox.world.demo.adminUserId, content: `while away ${i}` });
  };

  it('replays what the session still holds, then RESUMED', async () => {
    const { sessionId, seq } = await session();
    post(3);
    const answer = await resume(sessionId, seq);
    assert.deepEqual(
      answer.filter((payload) => payload.t === 'MESSAGE_CREATE').map((payload) => payload.s),
      [seq + 1, seq + 2, seq + 3],
    );
    assert.equal(answer.at(-1)?.t, 'RESUMED');
  });

  it("answers op 9 (not resumable) when events after the client's sequence are no longer held, and forgets the session", async () => {
    const { sessionId, seq } = await session();
    post(20);
    const answer = await resume(sessionId, seq);
    assert.deepEqual(
      answer.filter((payload) => payload.op !== 10),
      [{ op: 9, d: false, s: null, t: null }],
    );
    assert.ok(!answer.some((payload) => payload.t === 'MESSAGE_CREATE'), 'no partial replay');
    const again = await resume(sessionId, seq + 20);
    assert.deepEqual(
      again.filter((payload) => payload.op !== 10),
      [{ op: 9, d: false, s: null, t: null }],
      'the session is gone',
    );
  });
});
