// /appeal list | accept | deny (also a text command: !appeal accept 3 Apologised): the moderators'
// side of ban appeals in chat, the same functions the dashboard's Appeals dialog calls.
import { PermissionFlagsBits } from 'discord.js';
import { read, type Command, type Invocation, type Subcommand } from '../../bot/command';
import { InvalidInput } from '../../core/errors';
import type { Appeal } from '../../shared/appeals';
import { MAX_REASON_LENGTH } from '../../shared/moderation';
import { acceptAppeal, denyAppeal, listAppeals } from './appeals';
import { commandActor } from './standing';

/** How many open appeals /appeal list shows. */
const LISTED = 10;

/** One appeal in one line. */
const appealLine = (appeal: Appeal) =>
  `#${appeal.id} · ${appeal.userName ?? appeal.userId} (${appeal.userId}) · case #${appeal.caseNumber} · ` +
  `“${appeal.text.length > 120 ? `${appeal.text.slice(0, 120)}…` : appeal.text}”`;

const idOption = { type: 'integer' as const, name: 'id', description: 'The appeal’s number (from /appeal list)', required: true, min: 1, max: 2_147_483_647 };
const appealIdOf = (invocation: Invocation) => read.number(invocation, 'id') ?? 0;

/** Whether the member was told, in words. */
const dmNote = (appeal: Appeal) => (appeal.dmDelivered ? 'They were told by DM.' : 'They could not be told by DM; the appeal page shows the outcome.');

const list: Subcommand = {
  name: 'list',
  description: 'List the open ban appeals',
  async run({ services, guildId }) {
    const open = await listAppeals(services, guildId, { status: 'open', page: 1, pageSize: LISTED });
    if (open.total === 0) return 'There are no open appeals.';
    const more = open.total > LISTED ? `\n…and ${open.total - LISTED} more on the dashboard’s moderation page.` : '';
    return `${open.total} open appeal${open.total === 1 ? '' : 's'}:\n${open.entries.map(appealLine).join('\n')}${more}`;
  },
};

const accept: Subcommand = {
  name: 'accept',
  description: 'Accept a ban appeal: the ban is lifted and the member told',
  options: [idOption, { type: 'string', name: 'reason', description: 'Why (the member is told)', minLength: 1, maxLength: MAX_REASON_LENGTH }],
  async run(invocation) {
    const reason = read.string(invocation, 'reason')?.trim() || undefined;
    const accepted = await acceptAppeal(invocation.services, invocation.guildId, appealIdOf(invocation), reason, commandActor(invocation));
    return `Appeal #${accepted.id} accepted: ${accepted.userName ?? accepted.userId} was unbanned (case #${accepted.unbanCaseNumber}). ${dmNote(accepted)}`;
  },
};

const deny: Subcommand = {
  name: 'deny',
  description: 'Deny a ban appeal: the ban stays and the member is told why',
  options: [idOption, { type: 'string', name: 'reason', description: 'Why (the member is told)', required: true, minLength: 1, maxLength: MAX_REASON_LENGTH }],
  async run(invocation) {
    const reason = read.string(invocation, 'reason')?.trim();
    if (!reason) throw InvalidInput.field('reason', 'is required to deny', 'Give a reason to deny an appeal: the member is told it.');
    const denied = await denyAppeal(invocation.services, invocation.guildId, appealIdOf(invocation), reason, commandActor(invocation));
    return `Appeal #${denied.id} denied; the ban stays. ${dmNote(denied)}`;
  },
};

/** /appeal list|accept|deny: Ban Members, answered privately. */
const appeal: Command = {
  name: 'appeal',
  description: 'List, accept or deny ban appeals',
  permission: PermissionFlagsBits.BanMembers,
  ephemeral: true,
  subcommands: [list, accept, deny],
  run: async ({ prefix }) => `Use ${prefix}appeal list, ${prefix}appeal accept <id> [reason] or ${prefix}appeal deny <id> <reason>.`,
};

/** The appeals' commands. */
export const appealCommands: Command[] = [appeal];
