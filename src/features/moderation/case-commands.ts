// /case show|edit|pardon (each also a text command: "!case edit 12 new reason"): the same domain
// functions as the dashboard's member page, answered privately, pinging nobody.
import { PermissionFlagsBits } from 'discord.js';
import { read, type Command, type CommandReply, type Invocation } from '../../bot/command';
import { InvalidInput } from '../../core/errors';
import { DURATION_LABELS, MAX_REASON_LENGTH, type ModerationCase } from '../../shared/moderation';
import { CASE_DURATIONS, caseDurationLabel, type CaseDuration } from '../../shared/moderation-cases';
import { editCase } from './case-edits';
import { pardonWarning } from './case-pardons';
import { caseByNumber, caseLine } from './cases';
import { commandActor } from './standing';

const numberOption = { type: 'integer' as const, name: 'number', description: 'The case number', required: true, min: 1, max: 1_000_000_000 };
const durationChoices = CASE_DURATIONS.map((key) => ({ name: key === 'permanent' ? 'Permanent (bans only)' : DURATION_LABELS[key], value: key }));

const caseNumberOf = (invocation: Invocation) => read.number(invocation, 'number') ?? 0;
/** Discord's timestamp markup: each reader sees it in their own time zone. */
const when = (iso: string) => `<t:${Math.floor(new Date(iso).getTime() / 1000)}:f>`;

/** The end of a ban or timeout in words: when it ends or ended, or that it has none. */
function endsLine(view: ModerationCase, now: number): string | null {
  if (view.action !== 'ban' && view.action !== 'timeout') return null;
  if (view.liftedAt) return `Lifted ${when(view.liftedAt)}`;
  if (!view.expiresAt) return view.action === 'ban' ? 'Permanent' : null;
  return `${new Date(view.expiresAt).getTime() > now ? 'Ends' : 'Ended'} ${when(view.expiresAt)}`;
}

/** A case as an embed: what, who, by whom, its duration and end, its pardon and its edits. */
export function caseEmbed(view: ModerationCase, now: number): CommandReply {
  const ends = endsLine(view, now);
  const edits = view.edits
    .slice(-5)
    .map((edit) =>
      edit.field === 'reason'
        ? `${when(edit.at)} ${edit.byName ?? edit.byId}: reason was “${edit.from ?? 'none'}”`
        : `${when(edit.at)} ${edit.byName ?? edit.byId}: duration ${caseDurationLabel(edit.from)} → ${caseDurationLabel(edit.to)}`,
    );
  return {
    embeds: [
      {
        title: `Case #${view.caseNumber} · ${view.action}${view.pardonedAt ? ' (pardoned)' : ''}`,
        description: view.reason ?? 'No reason given.',
        fields: [
          { name: 'Member', value: `${view.targetName ?? 'Unknown'} (${view.targetId})`, inline: true },
          { name: 'Moderator', value: `${view.moderatorName ?? 'Unknown'} (${view.moderatorId})`, inline: true },
          ...(view.duration ? [{ name: 'Duration', value: DURATION_LABELS[view.duration], inline: true }] : []),
          ...(ends ? [{ name: 'Ends', value: ends, inline: true }] : []),
          { name: 'Source', value: view.source, inline: true },
          ...(view.pardonOf !== null ? [{ name: 'Pardons', value: `Warning #${view.pardonOf}`, inline: true }] : []),
          ...(view.pardonedAt ? [{ name: 'Pardoned', value: `${when(view.pardonedAt)} (case #${view.pardonCaseNumber ?? '?'})`, inline: true }] : []),
          ...(edits.length > 0 ? [{ name: 'Edits', value: edits.join('\n').slice(0, 1024) }] : []),
        ],
        timestamp: view.createdAt,
      },
    ],
  };
}

const show: Command = {
  name: 'show',
  description: 'Show one moderation case, with its edits',
  options: [numberOption],
  run: async (invocation) => caseEmbed(await caseByNumber(invocation.services, invocation.guildId, caseNumberOf(invocation)), invocation.services.clock.ms()),
};

const edit: Command = {
  name: 'edit',
  description: 'Change a case’s reason, or a ban’s or timeout’s duration (counted from when it began)',
  options: [
    numberOption,
    { type: 'string', name: 'reason', description: 'The new reason', minLength: 1, maxLength: MAX_REASON_LENGTH },
    { type: 'string', name: 'duration', description: 'The new duration, counted from the case’s start', choices: durationChoices },
  ],
  async run(invocation) {
    const reason = read.string(invocation, 'reason')?.trim();
    const duration = read.string(invocation, 'duration') as CaseDuration | undefined;
    if (reason === '') throw InvalidInput.field('reason', 'must not be blank', 'The new reason is blank: write one, or leave the option out.');
    if (reason === undefined && duration === undefined) throw InvalidInput.field('reason', 'is required', 'Give a new reason, a new duration, or both.');
    const view = await editCase(invocation.services, invocation.guildId, caseNumberOf(invocation), { reason, duration }, commandActor(invocation));
    const now = invocation.services.clock.ms();
    const ends = duration !== undefined ? endsLine(view, now) : null;
    return { content: `Case #${view.caseNumber} updated${ends ? ` · ${ends}` : ''}.`, ...caseEmbed(view, now) };
  },
};

const pardon: Command = {
  name: 'pardon',
  description: 'Pardon a warning: it no longer counts toward the warning ladder',
  options: [
    numberOption,
    { type: 'string', name: 'reason', description: 'Why it is pardoned (kept in the log)', required: true, minLength: 1, maxLength: MAX_REASON_LENGTH },
  ],
  async run(invocation) {
    const reason = read.string(invocation, 'reason')?.trim() ?? '';
    if (!reason) throw InvalidInput.field('reason', 'must not be blank', 'Say why the warning is pardoned.');
    const done = await pardonWarning(invocation.services, invocation.guildId, caseNumberOf(invocation), reason, commandActor(invocation));
    return `Warning #${done.pardonOf ?? caseNumberOf(invocation)} pardoned: it no longer counts toward the warning ladder. Case ${caseLine(done)}`;
  },
};

/** /case show|edit|pardon. */
export const caseCommand: Command = {
  name: 'case',
  description: 'Show, edit or pardon a moderation case',
  permission: PermissionFlagsBits.ModerateMembers,
  ephemeral: true,
  subcommands: [show, edit, pardon],
  run: async ({ prefix }) => `Use ${prefix}case show <number>, ${prefix}case edit <number> [reason] [duration] or ${prefix}case pardon <number> <reason>.`,
};
