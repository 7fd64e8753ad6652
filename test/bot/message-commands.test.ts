// Message commands (Apps -> name, on a message) through the sandbox: a test-only feature declares
// two, the bot registers them as type 3 commands, and members run them on messages. The feature
// rules are the slash commands' own: the same permission sentence, the same ephemeral replies.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PermissionFlagsBits } from 'discord.js';
import type { TargetMessage } from '../../src/bot/command';
import type { Feature } from '../../src/core/feature';
import { FEATURES } from '../../src/features';
import { useHarness, type ControlMessage } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

/** The targets the commands were run on, newest last. */
const targets: TargetMessage[] = [];

const messageCommandsFeature: Feature = {
  name: 'message-commands-test',
  messageCommands: [
    {
      name: 'Quote message',
      ephemeral: true,
      run: async ({ user, target }) => {
        targets.push(target);
        return `${user.displayName} quoted ${target.authorName}: "${target.content}"`;
      },
    },
    { name: 'Flag message', permission: PermissionFlagsBits.ManageMessages, run: async ({ target }) => `Flagged ${target.id}.` },
  ],
};

const h = useHarness({}, { features: [...FEATURES, messageCommandsFeature] });

/** Posts as a member through the control API; returns the message. */
async function post(authorId: string, content: string, channelId = h().demo.channels.general): Promise<ControlMessage> {
  const posted = await h().control<ControlMessage>('POST', `/channels/${channelId}/messages`, { authorId, content });
  assert.equal(posted.status, 201, JSON.stringify(posted.body));
  return posted.body;
}

describe('message commands', () => {
  test('are registered as type 3 commands beside the slash commands, with their default permission', async () => {
    const registered = await waitFor(
      () => {
        const commands = h().world.commands.list(null);
        return commands.some((command) => command.name === 'Flag message') ? commands : undefined;
      },
      5000,
      'the message commands registered',
    );
    const quote = registered.find((command) => command.name === 'Quote message');
    const flag = registered.find((command) => command.name === 'Flag message');
    assert.equal(quote?.type, 3);
    assert.equal(quote?.default_member_permissions, null);
    assert.equal(flag?.type, 3);
    assert.equal(flag?.default_member_permissions, PermissionFlagsBits.ManageMessages.toString());
    assert.ok(
      registered.some((command) => command.type === 1),
      'the slash commands are still registered',
    );
  });

  test('run on a message, the command sees the message and the member gets its reply privately', async () => {
    const joined = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/members`, { username: 'quoted_quinn', globalName: 'Quinn' });
    assert.equal(joined.status, 201, JSON.stringify(joined.body));
    const message = await post(joined.body.id, 'message commands are neat');
    const reply = await h().messageCommand(h().demo.adminUserId, 'Quote message', message.id);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.content, 'Demo Admin quoted Quinn: "message commands are neat"');
    assert.equal(reply.body.ephemeral, true);
    const { general } = h().demo.channels;
    assert.deepEqual(targets.at(-1), {
      id: message.id,
      channelId: general,
      authorId: joined.body.id,
      authorName: 'Quinn',
      authorBot: false,
      content: 'message commands are neat',
      url: `${h().product.services.meta.appBase}/channels/${h().guildId}/${general}/${message.id}`,
    });
    assert.ok(!(await h().messages(general)).some((posted) => posted.content === reply.body.content), 'the ephemeral reply is not in the channel');
  });

  test("a member without the command's permission is refused in the slash commands' words", async () => {
    // Discord offers the command to whoever holds Manage Messages in the channel; the bot, as for
    // slash commands, holds the member to the server-wide permission.
    const { plainMemberId, adminUserId } = h().demo;
    const channel = await h().control<{ id: string }>('POST', `/guilds/${h().guildId}/channels`, {
      name: 'flagging',
      overwrites: [{ id: plainMemberId, type: 'member', allow: ['ManageMessages'] }],
    });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    const message = await post(adminUserId, 'flag me', channel.body.id);
    const refused = await h().messageCommand(plainMemberId, 'Flag message', message.id, channel.body.id);
    assert.equal(refused.status, 200, JSON.stringify(refused.body));
    assert.equal(refused.body.content, 'You need the Manage Messages permission to use Flag message.');
    assert.equal(refused.body.ephemeral, true);
    const allowed = await h().messageCommand(adminUserId, 'Flag message', message.id, channel.body.id);
    assert.equal(allowed.body.content, `Flagged ${message.id}.`);
    assert.equal(allowed.body.ephemeral, false);
    // Where the member lacks it in the channel too, Discord does not even offer the command.
    const hidden = await h().messageCommand(plainMemberId, 'Flag message', (await post(adminUserId, 'elsewhere')).id);
    assert.equal(hidden.status, 403);
    assert.equal(hidden.body.error, 'missing_permissions');
  });

  test('an unknown message or message command is a clear control-API error', async () => {
    const unknownMessage = await h().messageCommand(h().demo.adminUserId, 'Quote message', '123456789012345678');
    assert.equal(unknownMessage.status, 404);
    assert.equal(unknownMessage.body.error, 'unknown_message');
    assert.equal(unknownMessage.body.message, 'No such message in this channel.');
    const message = await post(h().demo.adminUserId, 'quote me maybe');
    const unknownCommand = await h().messageCommand(h().demo.adminUserId, 'Nope message', message.id);
    assert.equal(unknownCommand.status, 404);
    assert.equal(unknownCommand.body.message, 'No message command "Nope message" is registered for this guild.');
    // A slash command's name is not a message command's.
    assert.equal((await h().messageCommand(h().demo.adminUserId, 'rank', message.id)).status, 404);
  });
});
