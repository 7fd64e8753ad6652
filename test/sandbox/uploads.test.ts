// A bot's files on a message, as Discord takes them: multipart with payload_json and files[n], the
// bytes served back at the attachment's url; a message of files alone; too many files refused;
// without Attach Files nothing is posted (50013).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { changeBotPermissions } from './helpers';

describe('sandbox: files from the bot', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 5 });
  });
  after(() => sandbox.close());

  /** Posts a multipart message as the bot, as @discordjs/rest builds it. */
  async function post(files: { name: string; bytes: Buffer }[], payload: Record<string, unknown>) {
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ ...payload, attachments: files.map((file, id) => ({ id: String(id), filename: file.name })) }));
    files.forEach((file, index) => form.append(`files[${index}]`, new Blob([new Uint8Array(file.bytes)], { type: 'image/png' }), file.name));
    const response = await fetch(`${sandbox.apiBase}/v10/channels/${sandbox.world.demo.channels.general}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${sandbox.botToken}` },
      body: form,
    });
    return {
      status: response.status,
      body: (await response.json()) as { code?: number; attachments?: { filename: string; url: string; size: number; content_type?: string }[] },
    };
  }

  it('a file alone is posted, listed as an attachment and served with its bytes', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
    const posted = await post([{ name: 'card.png', bytes }], {});
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const [file] = posted.body.attachments ?? [];
    assert.equal(file?.filename, 'card.png');
    assert.equal(file.content_type, 'image/png');
    assert.equal(file.size, bytes.length);
    assert.deepEqual(Buffer.from(await (await fetch(file.url)).arrayBuffer()), bytes, 'binary bytes kept as sent');
  });

  it('eleven files are refused, and so is a file without Attach Files', async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => ({ name: `f${index}.png`, bytes: Buffer.from([index]) }));
    const many = await post(eleven, { content: 'too many' });
    assert.equal(many.status, 400);
    assert.equal(many.body.code, 50035);
    // Taken from @everyone and the bot's role, as a server that lets nobody attach files.
    const { guildId } = sandbox.world.demo;
    const everyone = sandbox.world.requireGuild(guildId).roles.get(guildId);
    assert.ok(everyone);
    const everyoneHad = everyone.permissions;
    sandbox.world.structure.updateRole(guildId, everyone, { permissions: everyoneHad & ~P.AttachFiles });
    changeBotPermissions(sandbox, (permissions) => permissions & ~P.AttachFiles);
    try {
      const before = sandbox.world.messages.list(sandbox.world.demo.channels.general).length;
      const refused = await post([{ name: 'card.png', bytes: Buffer.from([1]) }], { content: 'with a file' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 50013);
      assert.equal(sandbox.world.messages.list(sandbox.world.demo.channels.general).length, before, 'nothing posted');
    } finally {
      changeBotPermissions(sandbox, (permissions) => permissions | P.AttachFiles);
      sandbox.world.structure.updateRole(guildId, everyone, { permissions: everyoneHad });
    }
  });
});
