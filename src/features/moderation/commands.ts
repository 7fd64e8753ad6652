// The moderation slash commands (each also a text command with the prefix): the same `moderate`
// the dashboard calls, with the moderator's Discord permission required, plus /warnings and the
// members' /report (/case is in case-commands.ts).
import { PermissionFlagsBits } from 'discord.js';
import { read, type Command, type Invocation, type MessageCommand } from '../../bot/command';
import { InvalidInput } from '../../core/errors';
import { isSnowflake, SNOWFLAKE_DIGITS, SNOWFLAKE_MESSAGE } from '../../shared/auth';
import { DURATION_KEYS, DURATION_LABELS, MAX_REASON_LENGTH, type Duration, type ModerationAction } from '../../shared/moderation';
import { ladderOutlook } from '../../shared/moderation-cases';
import { createReport } from './reports';
import { moderate } from './actions';
import { activeWarnings, caseLine, viewCase } from './cases';
import { ACTION_PERMISSIONS } from './standing';

const durationChoices = DURATION_KEYS.map((key) => ({ name: DURATION_LABELS[key], value: key }));
const reasonOption = {
  type: 'string' as const,
  name: 'reason',
  description: 'Why (the member is told, and it goes in the log)',
  required: true,
  minLength: 1,
  maxLength: MAX_REASON_LENGTH,
};

/** Runs an action as the invoking moderator and answers with the case. */
async function run(invocation: Invocation, action: ModerationAction, targetId: string, duration?: Duration): Promise<string> {
  const reason = read.string(invocation, action === 'note' ? 'text' : 'reason') ?? '';
  const taken = await moderate(
    invocation.services,
    invocation.guildId,
    { action, targetId, reason, duration },
    { userId: invocation.user.id, name: invocation.user.displayName, source: 'command' },
  );
  const dm = taken.dmDelivered === false ? ' (they could not be told by DM)' : '';
  return `Case ${caseLine(taken)}${dm}`;
}

/** The member option every action but unban takes. */
function memberOf(invocation: Invocation): string {
  const member = read.user(invocation, 'member');
  if (!member) throw InvalidInput.field('member', 'is required');
  return member.id;
}

const memberOption = (description: string) => ({ type: 'user' as const, name: 'member', description, required: true });

const ban: Command = {
  name: 'ban',
  description: 'Ban a member (for a while, with a duration)',
  permission: ACTION_PERMISSIONS.ban,
  options: [memberOption('Who to ban'), reasonOption, { type: 'string', name: 'duration', description: 'Lift the ban after', choices: durationChoices }],
  run: (invocation) => run(invocation, 'ban', memberOf(invocation), read.string(invocation, 'duration') as Duration | undefined),
};

const kick: Command = {
  name: 'kick',
  description: 'Kick a member',
  permission: ACTION_PERMISSIONS.kick,
  options: [memberOption('Who to kick'), reasonOption],
  run: (invocation) => run(invocation, 'kick', memberOf(invocation)),
};

const timeout: Command = {
  name: 'timeout',
  description: 'Time a member out',
  permission: ACTION_PERMISSIONS.timeout,
  options: [
    memberOption('Who to time out'),
    { type: 'string', name: 'duration', description: 'For how long', required: true, choices: durationChoices },
    reasonOption,
  ],
  run: (invocation) => run(invocation, 'timeout', memberOf(invocation), read.string(invocation, 'duration') as Duration),
};

const untimeout: Command = {
  name: 'untimeout',
  description: 'Lift a member’s timeout (a long one is no longer renewed)',
  permission: ACTION_PERMISSIONS.untimeout,
  options: [memberOption('Whose timeout to lift'), reasonOption],
  run: (invocation) => run(invocation, 'untimeout', memberOf(invocation)),
};

const warn: Command = {
  name: 'warn',
  description: 'Warn a member',
  permission: ACTION_PERMISSIONS.warn,
  options: [memberOption('Who to warn'), reasonOption],
  run: (invocation) => run(invocation, 'warn', memberOf(invocation)),
};

const unban: Command = {
  name: 'unban',
  description: 'Lift a ban',
  permission: ACTION_PERMISSIONS.unban,
  options: [
    { type: 'string', name: 'user_id', description: 'The banned user’s id', required: true, minLength: SNOWFLAKE_DIGITS.min, maxLength: SNOWFLAKE_DIGITS.max },
    reasonOption,
  ],
  run: (invocation) => {
    const userId = read.string(invocation, 'user_id') ?? '';
    if (!isSnowflake(userId)) throw InvalidInput.field('user_id', SNOWFLAKE_MESSAGE);
    return run(invocation, 'unban', userId);
  },
};

const note: Command = {
  name: 'note',
  description: 'Add a note about a member to the log (they are not told)',
  permission: ACTION_PERMISSIONS.note,
  ephemeral: true,
  options: [memberOption('About whom'), { type: 'string', name: 'text', description: 'The note', required: true, minLength: 1, maxLength: MAX_REASON_LENGTH }],
  run: (invocation) => run(invocation, 'note', memberOf(invocation)),
};

const warnings: Command = {
  name: 'warnings',
  description: 'List a member’s active warnings',
  permission: PermissionFlagsBits.ModerateMembers,
  ephemeral: true,
  options: [memberOption('Whose warnings')],
  async run(invocation) {
    const member = read.user(invocation, 'member');
    if (!member) throw InvalidInput.field('member', 'is required');
    const settings = await invocation.services.settings.get(invocation.guildId);
    const rows = await activeWarnings(invocation.services, invocation.guildId, member.id, settings);
    const ladder = ladderOutlook(settings.escalation, rows.length).text;
    if (rows.length === 0) return `${member.displayName} has no active warnings. ${ladder}`;
    const lines = rows.slice(0, 15).map((row) => caseLine(viewCase(invocation.services, row)));
    const more = rows.length > 15 ? `\n…and ${rows.length - 15} more in the dashboard.` : '';
    return `${member.displayName} has ${rows.length} active warning${rows.length === 1 ? '' : 's'}:\n${lines.join('\n')}${more}\n${ladder}`;
  },
};

const report: Command = {
  name: 'report',
  description: 'Report a member to the moderators',
  ephemeral: true,
  options: [memberOption('Who'), { type: 'string', name: 'reason', description: 'What happened', required: true, minLength: 1, maxLength: MAX_REASON_LENGTH }],
  async run(invocation) {
    const member = read.user(invocation, 'member');
    if (!member) throw InvalidInput.field('member', 'is required');
    await createReport(invocation.services, invocation.guildId, {
      reporter: { id: invocation.user.id, name: invocation.user.displayName },
      target: { id: member.id, name: member.displayName },
      reason: read.string(invocation, 'reason') ?? '',
    });
    return 'Thanks, the moderators have your report.';
  },
};

/** Every moderation command. */
export const moderationCommands: Command[] = [ban, kick, timeout, untimeout, warn, unban, note, warnings, report];

/** Apps → Report message: reports a message's author, with the message's link and text. */
export const reportMessage: MessageCommand = {
  name: 'Report message',
  ephemeral: true,
  async run(invocation) {
    const { target } = invocation;
    if (target.authorBot) return 'Bots’ messages cannot be reported; tell a moderator instead.';
    await createReport(invocation.services, invocation.guildId, {
      reporter: { id: invocation.user.id, name: invocation.user.displayName },
      target: { id: target.authorId, name: target.authorName },
      reason: 'Reported message',
      message: { id: target.id, channelId: target.channelId, content: target.content },
    });
    return 'Thanks, the moderators have your report of that message.';
  },
};
