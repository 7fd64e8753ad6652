// /xp give|take and /levels reset|restore|backups: the dashboard's leveling admin tools in chat,
// for members with Manage Server, answered privately, pinging nobody. A server-wide reset asks for
// a click first; every reset answers with a Restore button (its backup, BACKUP_DAYS days).
import { ButtonStyle, ComponentType, PermissionFlagsBits } from 'discord.js';
import { buttonId, read, type ButtonRow, type Command, type CommandReply, type Invocation } from '../../bot/command';
import { Forbidden, InvalidInput, NotFound } from '../../core/errors';
import type { Actor } from '../../core/actor';
import { BACKUP_DAYS, MAX_ADJUSTMENT, MAX_ADJUSTMENT_REASON, RESTORE_RULE } from '../../shared/level-admin';
import { adjustXp } from './adjustments';
import { counted } from '../../shared/words';
import { listBackups, resetLevels, restoreBackup } from './backups';

const actorOf = (invocation: Pick<Invocation, 'user'>): Actor => ({ userId: invocation.user.id, name: invocation.user.displayName });
const MANAGE = PermissionFlagsBits.ManageGuild;

/** One button in a row. */
function buttonRow(customId: string, label: string, style: ButtonStyle.Secondary | ButtonStyle.Danger): ButtonRow[] {
  return [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, custom_id: customId, label, style }] }];
}

/** The options of /xp give and /xp take. */
const adjustOptions = (verb: string) => [
  { type: 'user' as const, name: 'member', description: `Whom to ${verb} XP`, required: true },
  { type: 'integer' as const, name: 'amount', description: 'How much XP', required: true, min: 1, max: MAX_ADJUSTMENT },
  { type: 'string' as const, name: 'reason', description: 'Why (kept in the history)', required: true, minLength: 1, maxLength: MAX_ADJUSTMENT_REASON },
];

/** Gives (sign 1) or takes (sign -1) XP, through the dashboard's adjustXp. */
async function adjust(invocation: Invocation, sign: 1 | -1): Promise<string> {
  const member = read.user(invocation, 'member');
  if (!member) throw InvalidInput.field('member', 'is required', 'Name a member.');
  const reason = read.string(invocation, 'reason')?.trim() ?? '';
  if (!reason) throw InvalidInput.field('reason', 'must not be blank', 'Say why (the history keeps it).');
  const amount = sign * (read.number(invocation, 'amount') ?? 0);
  const { adjustment, rewardProblem } = await adjustXp(
    invocation.services,
    invocation.guildId,
    { userId: member.id, amount, reason },
    actorOf(invocation),
    'member',
  );
  const verb = amount > 0 ? `Gave ${amount.toLocaleString('en-US')} XP to` : `Took ${(-amount).toLocaleString('en-US')} XP from`;
  const level = adjustment.toLevel === adjustment.fromLevel ? `still level ${adjustment.toLevel}` : `now level ${adjustment.toLevel}`;
  const problem = rewardProblem ? ` A level reward could not be changed: ${rewardProblem}` : '';
  return `${verb} ${adjustment.username} (${reason}). They are ${level}, with ${adjustment.toXp.toLocaleString('en-US')} XP.${problem}`;
}

/** /xp give|take. */
export const xpCommand: Command = {
  name: 'xp',
  description: 'Give or take a member’s XP, with a reason',
  feature: 'leveling',
  permission: MANAGE,
  ephemeral: true,
  subcommands: [
    {
      name: 'give',
      description: 'Give a member XP (their level and rewards follow)',
      options: adjustOptions('give'),
      run: (invocation) => adjust(invocation, 1),
    },
    { name: 'take', description: 'Take XP from a member (never below 0)', options: adjustOptions('take'), run: (invocation) => adjust(invocation, -1) },
  ],
  run: async ({ prefix }) => `Use ${prefix}xp give <member> <amount> <reason> or ${prefix}xp take <member> <amount> <reason>.`,
};

/** A reset's answer, with the button that restores it. */
function resetReply(message: string, backupId: number | null): CommandReply {
  return { content: message, components: backupId === null ? [] : buttonRow(buttonId('levels', 'restore', backupId), 'Restore', ButtonStyle.Secondary) };
}

/** /levels reset|restore|backups. */
export const levelsCommand: Command = {
  name: 'levels',
  description: 'Reset members’ levels, and restore a reset',
  feature: 'leveling',
  permission: MANAGE,
  ephemeral: true,
  subcommands: [
    {
      name: 'reset',
      description: `Reset a member’s XP and level, or everyone’s (restorable for ${BACKUP_DAYS} days)`,
      options: [{ type: 'user', name: 'member', description: 'Whose (leave out for every member, after a confirmation)' }],
      async run(invocation) {
        const member = read.user(invocation, 'member');
        if (!member) {
          return {
            content: `This resets **every member’s XP and level** in this server. A backup is kept for ${BACKUP_DAYS} days. ${RESTORE_RULE}`,
            components: buttonRow(buttonId('levels', 'reset-all'), 'Reset every member', ButtonStyle.Danger),
          };
        }
        const done = await resetLevels(invocation.services, invocation.guildId, { userId: member.id }, actorOf(invocation));
        return resetReply(done.message, done.backupId);
      },
    },
    {
      name: 'restore',
      description: 'Restore a reset or an import from its backup (the latest by default)',
      options: [{ type: 'integer', name: 'backup', description: 'The backup number (see /levels backups)', min: 1, max: 2_147_483_647 }],
      async run(invocation) {
        const id = read.number(invocation, 'backup') ?? (await listBackups(invocation.services, invocation.guildId)).find((backup) => !backup.restoredAt)?.id;
        if (id === undefined) throw new NotFound(`There is no backup to restore: backups are kept ${BACKUP_DAYS} days.`);
        return (await restoreBackup(invocation.services, invocation.guildId, id, actorOf(invocation))).message;
      },
    },
    {
      name: 'backups',
      description: `The resets and imports that can be restored (kept ${BACKUP_DAYS} days)`,
      async run(invocation) {
        const backups = await listBackups(invocation.services, invocation.guildId);
        if (backups.length === 0) return `No backups: a reset or an import keeps one for ${BACKUP_DAYS} days.`;
        const lines = backups.slice(0, 15).map((backup) => {
          const state = backup.restoredAt
            ? `restored${backup.restoredByName ? ` by ${backup.restoredByName}` : ''}`
            : `${counted(backup.daysLeft, 'day')} left`;
          return `**#${backup.id}** ${backup.summary} · ${backup.actorName ?? 'unknown'} · <t:${Math.floor(Date.parse(backup.createdAt) / 1000)}:f> · ${state}`;
        });
        return { embeds: [{ title: 'Level backups', description: lines.join('\n').slice(0, 4000), footer: { text: RESTORE_RULE } }] };
      },
    },
  ],
  run: async ({ prefix }) => `Use ${prefix}levels reset [member], ${prefix}levels restore [backup] or ${prefix}levels backups.`,
  async button(invocation, [action, id]) {
    // The buttons sit on a private reply, and are held to the command's own permission all the same.
    if (!invocation.member.permissions.has(MANAGE)) throw new Forbidden('You need the Manage Server permission to reset or restore levels.');
    if (action === 'reset-all') {
      const done = await resetLevels(invocation.services, invocation.guildId, {}, actorOf(invocation));
      return resetReply(done.message, done.backupId);
    }
    if (action === 'restore') {
      const done = await restoreBackup(invocation.services, invocation.guildId, Number(id), actorOf(invocation));
      return { content: done.message, components: [] };
    }
    throw new NotFound('That button is no longer in use.');
  },
};
