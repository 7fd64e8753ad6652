// /purge, /slowmode, /lock and /unlock (each also a text command with the prefix): the channel
// tools the dashboard calls, on the channel the command is run in unless another is given.
import { PermissionFlagsBits } from 'discord.js';
import { read, type Command, type CommandOption, type Invocation } from '../../bot/command';
import { InvalidInput } from '../../core/errors';
import { isSnowflake } from '../../shared/auth';
import { PURGE_LIMITS, SLOWMODE_LIMITS } from '../../shared/channel-tools';
import { lockChannel, purgeChannel, setSlowmode, unlockChannel } from './channel-tools';
import { commandActor } from './standing';

const channelOption = (description: string): CommandOption => ({ type: 'channel', name: 'channel', description });

/** The channel given, or the one the command was run in. */
function channelOf(invocation: Invocation): string {
  const given = read.string(invocation, 'channel');
  if (given !== undefined && !isSnowflake(given)) throw InvalidInput.field('channel', 'must be a channel', 'That is not a channel of this server.');
  return given ?? invocation.channelId;
}

const purge: Command = {
  name: 'purge',
  description: 'Delete recent messages (up to 100, none older than 14 days)',
  permission: PermissionFlagsBits.ManageMessages,
  ephemeral: true,
  options: [
    { type: 'integer', name: 'count', description: 'How many messages to delete', required: true, min: PURGE_LIMITS.minCount, max: PURGE_LIMITS.maxCount },
    { type: 'user', name: 'user', description: 'Only messages from this member' },
    { type: 'string', name: 'contains', description: 'Only messages containing this text', minLength: 1, maxLength: PURGE_LIMITS.maxContains },
    { type: 'boolean', name: 'bots', description: 'Only messages from bots' },
    { type: 'boolean', name: 'links', description: 'Only messages with links' },
    channelOption('Where (this channel if left out)'),
  ],
  async run(invocation) {
    const contains = read.string(invocation, 'contains')?.trim();
    const result = await purgeChannel(
      invocation.services,
      invocation.guildId,
      channelOf(invocation),
      {
        count: read.number(invocation, 'count') ?? 0,
        userId: read.user(invocation, 'user')?.id,
        contains: contains ? contains : undefined,
        bots: read.boolean(invocation, 'bots'),
        links: read.boolean(invocation, 'links'),
      },
      commandActor(invocation),
      // `!purge 5` purges the five messages before the command, not the command and four.
      invocation.messageId,
    );
    return result.message;
  },
};

const slowmode: Command = {
  name: 'slowmode',
  description: 'Set the seconds between one member’s messages (0 turns it off)',
  permission: PermissionFlagsBits.ManageChannels,
  options: [
    { type: 'integer', name: 'seconds', description: '0 to 21600 (6 hours)', required: true, min: SLOWMODE_LIMITS.min, max: SLOWMODE_LIMITS.max },
    channelOption('Which channel (this one if left out)'),
  ],
  async run(invocation) {
    const seconds = read.number(invocation, 'seconds') ?? 0;
    return (await setSlowmode(invocation.services, invocation.guildId, channelOf(invocation), seconds, commandActor(invocation))).message;
  },
};

const lock: Command = {
  name: 'lock',
  description: 'Stop members from sending messages in a channel',
  permission: PermissionFlagsBits.ManageChannels,
  options: [channelOption('Which channel (this one if left out)')],
  run: async (invocation) => (await lockChannel(invocation.services, invocation.guildId, channelOf(invocation), commandActor(invocation))).message,
};

const unlock: Command = {
  name: 'unlock',
  description: 'Let members send messages in a locked channel again, as before the lock',
  permission: PermissionFlagsBits.ManageChannels,
  options: [channelOption('Which channel (this one if left out)')],
  run: async (invocation) => (await unlockChannel(invocation.services, invocation.guildId, channelOf(invocation), commandActor(invocation))).message,
};

/** The channel tools' commands. */
export const channelCommands: Command[] = [purge, slowmode, lock, unlock];
