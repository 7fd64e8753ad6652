import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Guild } from 'discord.js';
import { InvalidInput } from '../core/errors';
import type { Command, CommandAttachment } from './command';
import { validateOptions } from './options';
import { textOptions, tokenize } from './text';

test('text command words split on spaces, and double quotes keep a phrase together', () => {
  assert.deepEqual(
    tokenize('  <@123456789012345678>  50 "thanks for the help" extra').map((t) => t.text),
    ['<@123456789012345678>', '50', 'thanks for the help', 'extra'],
  );
  assert.deepEqual(tokenize(''), []);
  assert.equal(tokenize('a  bb')[1]?.start, 3);
});

/** A command that plays a file, with text around it (only users would need the guild). */
const play: Command = {
  name: 'play',
  description: 'Plays a file',
  options: [
    { type: 'attachment', name: 'file', description: 'The file', required: true },
    { type: 'integer', name: 'volume', description: 'How loud' },
    { type: 'attachment', name: 'cover', description: 'A picture' },
    { type: 'string', name: 'title', description: 'What to call it' },
  ],
  run: async () => 'played',
};
const noGuild = {} as Guild;
const file = (id: string): CommandAttachment => ({ id, url: `https://cdn.example/${id}/a.mp3`, name: `${id}.mp3`, size: 3, contentType: 'audio/mpeg' });

test("a text command's attachment options take the message's files in order, and no word of the text", async () => {
  const values = await textOptions(play, ' 80 my "best" song', noGuild, '!', [file('1'), file('2'), file('3')]);
  assert.deepEqual(Object.fromEntries(values), { file: file('1'), volume: 80, cover: file('2'), title: 'my "best" song' });
  const one = await textOptions(play, '', noGuild, '!', [file('9')]);
  assert.deepEqual(Object.fromEntries(one), { file: file('9') }, 'a file alone fills the first attachment option');
});

test('a required attachment option without a file is the usual "is required" usage error; a file is valid, anything else is not', async () => {
  const values = await textOptions(play, ' 80', noGuild, '!');
  assert.equal(values.has('file'), false);
  assert.throws(
    () => validateOptions(play, values, '!'),
    (error: unknown) => error instanceof InvalidInput && error.message === 'file is required. Usage: !play <file> [volume] [cover] [title]',
  );
  assert.doesNotThrow(() => validateOptions(play, new Map([['file', file('1')]]), '!'));
  const user = { id: '1', username: 'a', displayName: 'A', bot: false };
  assert.throws(
    () => validateOptions(play, new Map([['file', user]]), '!'),
    (error: unknown) => error instanceof InvalidInput && error.message.startsWith('file must be a file.'),
  );
});
