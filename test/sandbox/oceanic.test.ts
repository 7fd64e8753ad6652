// A second opinion: Oceanic.js 1.15, unmodified, pointed at the sandbox as at Discord. What it finds
// is fixed in the sandbox, never patched in the client. It connects (plain JSON and zlib-stream,
// which it inflates with pako), caches the guilds from GUILD_CREATE, asks for members over the
// gateway, and sends and reads messages over REST.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Client as OceanicClient } from 'oceanic.js';
import { startSandbox, type Sandbox } from '../../src/sandbox';

// The CommonJS build: tsx's interop misreads the double default of the package's ESM wrapper.
const { Client } = createRequire(import.meta.url)('oceanic.js') as typeof import('oceanic.js');

/** An Oceanic.js client on the sandbox, ready (READY and every GUILD_CREATE handled). */
async function connect(sandbox: Sandbox, compress?: 'zlib-stream'): Promise<OceanicClient> {
  const client = new Client({
    auth: `Bot ${sandbox.botToken}`,
    rest: { baseURL: `${sandbox.apiBase}/v10` },
    gateway: { intents: ['GUILDS', 'GUILD_MEMBERS', 'GUILD_MESSAGES', 'MESSAGE_CONTENT'], ...(compress ? { compress } : {}), autoReconnect: false },
  });
  const errors: Error[] = [];
  client.on('error', (error) => void errors.push(error instanceof Error ? error : new Error(String(error))));
  const ready = new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('disconnect', () => reject(new Error(`disconnected before ready: ${errors.map((error) => error.message).join('; ')}`)));
  });
  await client.connect();
  await ready;
  assert.deepEqual(errors, []);
  return client;
}

describe('Oceanic.js against the sandbox', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 20 });
  });
  after(() => sandbox.close());

  for (const compress of [undefined, 'zlib-stream'] as const) {
    test(`connects unmodified${compress ? ' with zlib-stream' : ''}: the bot user, both guilds cached, members asked over the gateway`, async () => {
      const client = await connect(sandbox, compress);
      try {
        assert.equal(client.user.id, sandbox.world.botUserId);
        const guild = client.guilds.get(sandbox.world.demo.guildId);
        assert.equal(guild?.name, sandbox.world.requireGuild(sandbox.world.demo.guildId).name);
        assert.ok(guild.channels.has(sandbox.world.demo.channels.general), 'the channels came with GUILD_CREATE');
        const members = await guild.fetchMembers({ limit: 5 });
        assert.equal(members.length, 5);
      } finally {
        client.disconnect(false);
      }
    });
  }

  test('sends a message with an embed and reads it back', async () => {
    const client = await connect(sandbox);
    try {
      const channelId = sandbox.world.demo.channels.general;
      const sent = await client.rest.channels.createMessage(channelId, {
        content: 'hello from Oceanic.js',
        embeds: [{ title: 'Tour', description: 'stop 1' }],
      });
      assert.equal(sent.content, 'hello from Oceanic.js');
      const read = await client.rest.channels.getMessage(channelId, sent.id);
      assert.deepEqual([read.content, read.embeds[0]?.title, read.author.id], ['hello from Oceanic.js', 'Tour', sandbox.world.botUserId]);
      assert.equal(sandbox.world.messages.list(channelId).at(-1)?.content, 'hello from Oceanic.js');
    } finally {
      client.disconnect(false);
    }
  });
});
