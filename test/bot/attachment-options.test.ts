// A command's attachment option through the sandbox: the same command run as /fileinfo with an
// upload and as !fileinfo on a message with a file gets the same CommandAttachment, whose URL serves
// the file's bytes; a text run without a file answers the usual usage error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { read, type CommandAttachment } from '../../src/bot/command';
import type { Feature } from '../../src/core/feature';
import { FEATURES } from '../../src/features';
import { useHarness, type ControlMessage } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

/** What each run of /fileinfo was given, and the bytes its URL served. */
const runs: { source: string; file: CommandAttachment | undefined; bytes: Buffer | null }[] = [];

const fileFeature: Feature = {
  name: 'attachment-options-test',
  commands: [
    {
      name: 'fileinfo',
      description: 'Describes a file',
      options: [
        { type: 'attachment', name: 'file', description: 'The file', required: true },
        { type: 'string', name: 'note', description: 'A note' },
      ],
      run: async (invocation) => {
        const file = read.attachment(invocation, 'file');
        const bytes = file ? Buffer.from(await (await fetch(file.url)).arrayBuffer()) : null;
        runs.push({ source: invocation.source, file, bytes });
        return `${file?.name} (${file?.size} bytes, ${file?.contentType}) ${read.string(invocation, 'note') ?? ''}`.trim();
      },
    },
  ],
};

const h = useHarness({}, { features: [...FEATURES, fileFeature] });

const AUDIO = Buffer.from('ID3\u0004\u0000 pretend this is an mp3');
const upload = { filename: 'song.mp3', contentType: 'audio/mpeg', dataBase64: AUDIO.toString('base64') };

describe('attachment options', () => {
  test('as a slash command and as a text command, the command gets the same file, and its URL serves the bytes', async () => {
    await waitFor(() => h().world.commands.findByName(h().guildId, 'fileinfo'), 5000, '/fileinfo registered');
    const member = h().demo.plainMemberId;
    const slash = await h().slash(member, 'fileinfo', { file: upload, note: 'slash' });
    assert.equal(slash.status, 200, JSON.stringify(slash.body));
    assert.equal(slash.body.content, `song.mp3 (${AUDIO.length} bytes, audio/mpeg) slash`);

    const { general } = h().demo.channels;
    const posted = await h().control<ControlMessage>('POST', `/channels/${general}/messages`, {
      authorId: member,
      content: '!fileinfo text',
      attachments: [upload],
    });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const reply = await h().waitForMessage(general, (message) => message.bot && message.replyTo === posted.body.id);
    assert.equal(reply.content, `song.mp3 (${AUDIO.length} bytes, audio/mpeg) text`);

    const [bySlash, byText] = runs.slice(-2);
    assert.equal(bySlash?.source, 'slash');
    assert.equal(byText?.source, 'text');
    for (const run of [bySlash, byText]) {
      assert.deepEqual(run?.bytes, AUDIO, `${run?.source}: the URL serves the file`);
      assert.match(run?.file?.url ?? '', /\/attachments\/\d+\/\d+\/song\.mp3$/);
    }
    // Each upload is its own file (its own id and URL); everything else the command sees is the same.
    const shape = (file: CommandAttachment | undefined) => ({ ...file, id: 'id', url: 'url' });
    assert.deepEqual(shape(bySlash?.file), shape(byText?.file));
    assert.deepEqual(shape(byText?.file), { id: 'id', url: 'url', name: 'song.mp3', size: AUDIO.length, contentType: 'audio/mpeg' });
  });

  test('a text command without the file answers that it is required, with the usage', async () => {
    const reply = await h().say(h().demo.plainMemberId, '!fileinfo no file here');
    assert.match(reply.content, /file is required\. Usage: !fileinfo <file> \[note\]/);
  });
});
