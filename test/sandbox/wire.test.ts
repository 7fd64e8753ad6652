// The wire as Discord's: JSON answered as exactly `application/json` (Oceanic.js and Eris read a
// body as JSON only then), the gateway at the URL handed out with the `/?v=10` libraries append,
// version 10 only (4012), JSON only (ETF refused in words), and zlib-stream transport compression:
// one zlib context per connection, each payload a binary frame ending in 00 00 ff ff.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { constants, createInflate } from 'node:zlib';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { waitFor } from '../helpers/wait';

const SYNC_FLUSH_SUFFIX = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** A raw gateway connection at `path` + `query`: its frames as received, and how it closed. */
function connect(sandbox: Sandbox, suffix: string) {
  const ws = new WebSocket(`${sandbox.gatewayUrl}${suffix}`);
  const frames: { binary: boolean; data: Buffer }[] = [];
  ws.on('message', (data, binary) => frames.push({ binary, data: Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer) }));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  return { ws, frames, closed, opened };
}

describe('the wire as Discord speaks it', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 5, rateLimits: 'relaxed' });
  });
  after(() => sandbox.close());

  it('JSON answers, errors and OAuth2 token refusals included, say exactly application/json', async () => {
    const bot = { authorization: `Bot ${sandbox.botToken}` };
    const gateway = await fetch(`${sandbox.apiBase}/v10/gateway/bot`, { headers: bot });
    assert.equal(gateway.status, 200);
    assert.equal(gateway.headers.get('content-type'), 'application/json');
    assert.equal(((await gateway.json()) as { url: string }).url, sandbox.gatewayUrl);
    const missing = await fetch(`${sandbox.apiBase}/v10/channels/1/messages`, { headers: bot });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/json');
    const token = await fetch(`${sandbox.oauth.tokenHost}${sandbox.oauth.tokenPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope',
    });
    assert.ok(token.status >= 400);
    assert.equal(token.headers.get('content-type'), 'application/json');
  });

  it('the gateway answers at its URL with the `/?v=10&encoding=json` libraries append, and without the slash', async () => {
    for (const suffix of ['/?v=10&encoding=json', '?v=10&encoding=json', '']) {
      const client = connect(sandbox, suffix);
      await client.opened;
      await waitFor(() => client.frames.length > 0, 5000, `HELLO at ${suffix || 'the bare URL'}`);
      assert.equal(client.frames[0]?.binary, false);
      assert.equal((JSON.parse(client.frames[0]?.data.toString() ?? '') as { op: number }).op, 10, suffix);
      client.ws.close(1000);
    }
  });

  it('a version other than 10 closes 4012; ETF, an unknown encoding or compression closes 1003 saying what to use', async () => {
    const refusals: [string, number, RegExp][] = [
      ['/?v=6&encoding=json', 4012, /Invalid API version/],
      ['/?v=9', 4012, /Invalid API version/],
      ['/?v=10&encoding=etf', 1003, /does not speak ETF: connect with encoding=json/],
      ['/?v=10&encoding=xml', 1003, /Unknown encoding "xml": connect with encoding=json/],
      ['/?v=10&encoding=json&compress=zstd-stream', 1003, /does not serve compress=zstd-stream: use zlib-stream or no compression/],
    ];
    for (const [suffix, code, reason] of refusals) {
      const client = connect(sandbox, suffix);
      const closed = await client.closed;
      assert.equal(closed.code, code, suffix);
      assert.match(closed.reason, reason, suffix);
      assert.equal(client.frames.length, 0, `${suffix}: nothing said before the close`);
    }
  });

  it('compress=zlib-stream: every payload is one binary frame ending in 00 00 ff ff, inflated by one zlib context', async () => {
    const client = connect(sandbox, '/?v=10&encoding=json&compress=zlib-stream');
    await client.opened;
    const inflate = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    const payloads: { op: number; t: string | null; d: unknown }[] = [];
    let pending = '';
    inflate.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      // Each frame inflates to exactly one payload.
      try {
        payloads.push(JSON.parse(pending) as (typeof payloads)[number]);
        pending = '';
      } catch {
        // The rest of the payload is still coming.
      }
    });
    let fed = 0;
    const feed = () => {
      for (; fed < client.frames.length; fed += 1) {
        const frame = client.frames[fed];
        assert.ok(frame?.binary, `frame ${fed + 1} is binary`);
        assert.deepEqual(frame.data.subarray(-4), SYNC_FLUSH_SUFFIX, `frame ${fed + 1} ends with the sync flush`);
        inflate.write(frame.data);
      }
    };
    client.ws.on('message', feed);
    feed();
    await waitFor(() => payloads.length >= 1, 5000, 'the inflated HELLO');
    assert.equal(payloads[0]?.op, 10);
    client.ws.send(
      JSON.stringify({ op: 2, d: { token: sandbox.botToken, intents: 1, properties: { os: 'linux', browser: 'wire-test', device: 'wire-test' } } }),
    );
    const demoGuild = (payload: (typeof payloads)[number]) => payload.t === 'GUILD_CREATE' && (payload.d as { id: string }).id === sandbox.world.demo.guildId;
    await waitFor(() => payloads.some(demoGuild), 5000, "READY and the demo guild's GUILD_CREATE through the stream");
    // Inflating is asynchronous: wait until every frame received so far has come out as exactly one payload.
    await waitFor(() => payloads.length === client.frames.length, 5000, 'one payload from each frame');
    const dispatches = payloads.filter((payload) => payload.op === 0).map((payload) => payload.t);
    assert.equal(dispatches[0], 'READY');
    assert.ok(
      dispatches.slice(1).every((type) => type === 'GUILD_CREATE'),
      dispatches.join(', '),
    );
    client.ws.close(1000);
  });
});
