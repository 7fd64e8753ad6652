// Files members attach reach the bot as Discord's attachment objects, and their URLs serve the bytes
// from the sandbox's own origin as Discord's CDN does: a member's message with a file, a slash
// command's attachment option, and what the control API refuses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApplicationCommandOptionType, Events, GatewayIntentBits as I, type Attachment, type Message } from 'discord.js';
import { botApi, control, startBotHarness, waitForEvent, type BotHarness } from './helpers';
import { startClientWithIntents } from './intents-client';

interface ControlAttachment {
  id: string;
  filename: string;
  size: number;
  contentType: string | null;
  url: string;
}
interface ControlError {
  error: string;
  message: string;
  fields?: Record<string, string>;
}

/** Bytes that look like the start of an MP3 (an ID3 tag), then some noise. */
const AUDIO = Buffer.concat([
  Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000'),
  Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 37) % 256)),
]);

describe('attachments', () => {
  let h: BotHarness;
  /** The attachment the bot's /upload handler saw last. */
  let seen: Attachment | null = null;
  before(async () => {
    h = await startBotHarness({ rateLimits: 'relaxed' });
    await h.client.application?.commands.set(
      [
        {
          name: 'upload',
          description: 'Takes a file',
          options: [
            { name: 'file', description: 'The file', type: ApplicationCommandOptionType.Attachment, required: true },
            { name: 'note', description: 'A note', type: ApplicationCommandOptionType.String },
          ],
        },
      ],
      h.sandbox.world.demo.guildId,
    );
    h.client.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand() || interaction.commandName !== 'upload') return;
      seen = interaction.options.getAttachment('file', true);
      await interaction.reply(`got ${seen.name} (${seen.size} bytes)`);
    });
  });
  after(() => h.close());

  const general = () => h.sandbox.world.demo.channels.general;
  const member = () => h.sandbox.world.demo.plainMemberId;
  const post = (body: object) =>
    control<{ id: string; attachments: ControlAttachment[] } & ControlError>(h.sandbox, 'POST', `/channels/${general()}/messages`, body);
  const slash = (options: object) =>
    control<{ content: string } & ControlError>(h.sandbox, 'POST', '/interactions', {
      guildId: h.sandbox.world.demo.guildId,
      channelId: general(),
      userId: member(),
      name: 'upload',
      options,
    });

  it("a member's message with an audio file reaches discord.js with the file's URL, which serves the same bytes and type", async () => {
    const created = waitForEvent<[Message]>(h.client, Events.MessageCreate, (message) => message.content === 'play this');
    const posted = await post({
      authorId: member(),
      content: 'play this',
      attachments: [{ filename: 'song one.mp3', contentType: 'audio/mpeg', dataBase64: AUDIO.toString('base64') }],
    });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const [message] = await created;
    const attachment = message.attachments.first();
    assert.ok(attachment, 'discord.js sees the attachment');
    assert.equal(message.attachments.size, 1);
    assert.equal(attachment.name, 'song one.mp3');
    assert.equal(attachment.size, AUDIO.length);
    assert.equal(attachment.contentType, 'audio/mpeg');
    assert.ok(attachment.url.startsWith(`${h.sandbox.url}/attachments/${general()}/${attachment.id}/`), attachment.url);
    assert.deepEqual(posted.body.attachments, [
      { id: attachment.id, filename: 'song one.mp3', size: AUDIO.length, contentType: 'audio/mpeg', url: attachment.url },
    ]);

    const download = await fetch(attachment.url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'audio/mpeg');
    assert.equal(download.headers.get('content-length'), String(AUDIO.length));
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), AUDIO);

    const fetched = await botApi<{ attachments: { id: string; url: string; proxy_url: string; content_type: string }[] }>(
      h.sandbox,
      'GET',
      `/channels/${general()}/messages/${message.id}`,
    );
    assert.equal(fetched.body.attachments[0]?.url, attachment.url, 'REST shows the attachment too');
    assert.equal(fetched.body.attachments[0]?.content_type, 'audio/mpeg');
  });

  it('a bot without the MessageContent intent gets no attachments, as it gets no content', async () => {
    const blind = await startClientWithIntents(h.sandbox, [I.Guilds, I.GuildMessages]);
    try {
      const got = waitForEvent<[Message]>(blind, Events.MessageCreate, (m) => m.author.id === member());
      const posted = await post({ authorId: member(), content: 'a file', attachments: [{ filename: 'a.mp3', dataBase64: AUDIO.toString('base64') }] });
      assert.equal(posted.status, 201);
      const [message] = await got;
      assert.equal(message.content, '');
      assert.equal(message.attachments.size, 0);
    } finally {
      await blind.destroy();
    }
  });

  it('a file without content type gets one from its extension; a message may be only files', async () => {
    const posted = await post({ authorId: member(), attachments: [{ filename: 'clip.ogg', dataBase64: Buffer.from('OggS').toString('base64') }] });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const [file] = posted.body.attachments;
    assert.equal(file?.contentType, 'audio/ogg');
    assert.equal((await fetch(file?.url ?? '')).headers.get('content-type'), 'audio/ogg');
  });

  it('a deleted message takes its files with it; unknown files and wrong paths are 404', async () => {
    const posted = await post({ authorId: member(), content: 'gone soon', attachments: [{ filename: 'a.mp3', dataBase64: AUDIO.toString('base64') }] });
    const url = posted.body.attachments[0]?.url ?? '';
    assert.equal((await fetch(url)).status, 200);
    const before = h.sandbox.world.attachments.size;
    assert.equal((await control(h.sandbox, 'DELETE', `/channels/${general()}/messages/${posted.body.id}`)).status, 204);
    assert.equal((await fetch(url)).status, 404);
    assert.equal(h.sandbox.world.attachments.size, before - AUDIO.length, 'the bytes are gone from memory');
    assert.equal((await fetch(`${h.sandbox.url}/attachments/${general()}/123456789012345678/a.mp3`)).status, 404);
    const other = await post({ authorId: member(), attachments: [{ filename: 'b.mp3', dataBase64: AUDIO.toString('base64') }] });
    const kept = other.body.attachments[0];
    assert.equal((await fetch(`${h.sandbox.url}/attachments/${general()}/${kept?.id}/c.mp3`)).status, 404, 'another file name');
    assert.equal((await fetch(`${h.sandbox.url}/attachments/${h.sandbox.world.demo.channels.rules}/${kept?.id}/b.mp3`)).status, 404, 'another channel');
  });

  it("a slash command's attachment option reaches discord.js through resolved.attachments, with a URL serving the file", async () => {
    seen = null;
    const answer = await slash({ file: { filename: 'track.flac', contentType: 'audio/flac', dataBase64: AUDIO.toString('base64') }, note: 'loud' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.content, `got track.flac (${AUDIO.length} bytes)`);
    const attachment = seen as Attachment | null;
    assert.ok(attachment);
    assert.equal(attachment.contentType, 'audio/flac');
    assert.equal(attachment.ephemeral, true, 'an upload of an interaction is ephemeral, as on Discord');
    const download = await fetch(attachment.url);
    assert.equal(download.headers.get('content-type'), 'audio/flac');
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), AUDIO);
  });

  it('bad files are refused with a 400 naming the field', async () => {
    const cases: [string, object, string][] = [
      ['a path in the name', { filename: '../etc/passwd', dataBase64: '' }, 'attachments.0.filename'],
      ['a backslash in the name', { filename: 'a\\b.mp3', dataBase64: '' }, 'attachments.0.filename'],
      ['an empty name', { filename: '', dataBase64: '' }, 'attachments.0.filename'],
      ['a 256-character name', { filename: `${'x'.repeat(252)}.mp3`, dataBase64: '' }, 'attachments.0.filename'],
      ['data that is not base64', { filename: 'a.mp3', dataBase64: 'not base64!' }, 'attachments.0.dataBase64'],
      ['a content type that is not one', { filename: 'a.mp3', contentType: 'mp3', dataBase64: '' }, 'attachments.0.contentType'],
    ];
    for (const [what, file, field] of cases) {
      const refused = await post({ authorId: member(), content: 'x', attachments: [file] });
      assert.equal(refused.status, 400, what);
      assert.ok(refused.body.fields?.[field], `${what}: ${JSON.stringify(refused.body)}`);
    }
    const tooBig = await post({
      authorId: member(),
      content: 'x',
      attachments: [0, 1024].map((extra) => ({ filename: `${extra}.bin`, dataBase64: Buffer.alloc(12.5 * 1024 * 1024 + extra).toString('base64') })),
    });
    assert.equal(tooBig.status, 400, 'just past 25 MiB together');
    assert.match(tooBig.body.fields?.attachments ?? '', /at most 25 MiB/);
    const hugeBody = await post({
      authorId: member(),
      content: 'x',
      attachments: [{ filename: 'huge.bin', dataBase64: Buffer.alloc(30 * 1024 * 1024).toString('base64') }],
    });
    assert.equal(hugeBody.status, 413, 'a body no allowed post can have is refused (its rest dropped, never kept)');
    assert.equal(hugeBody.body.error, 'body_too_large');
    const empty = await post({ authorId: member(), attachments: [] });
    assert.equal(empty.status, 400);
    assert.ok(empty.body.fields?.content, 'a post needs content or a file');

    const wrongType = await slash({ file: 'track.mp3' });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.fields?.['options.file'], 'Option "file" must be a file.');
    const fileForText = await slash({ file: { filename: 'a.mp3', dataBase64: '' }, note: { filename: 'b.txt', dataBase64: '' } });
    assert.equal(fileForText.status, 400);
    assert.equal(fileForText.body.fields?.['options.note'], 'Option "note" must not be a file.');
    const badName = await slash({ file: { filename: 'a/b.mp3', dataBase64: '' } });
    assert.equal(badName.status, 400);
    assert.ok(badName.body.fields?.['options.file.filename'], JSON.stringify(badName.body));
  });

  it("a refused slash command's files are not kept", async () => {
    const before = h.sandbox.world.attachments.size;
    const refused = await slash({ file: { filename: 'a.mp3', dataBase64: AUDIO.toString('base64') }, bogus: 1 });
    assert.equal(refused.status, 400);
    assert.equal(h.sandbox.world.attachments.size, before);
  });
});
