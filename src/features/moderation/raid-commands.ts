// /raid status|start|end (and the text command `raid start`): raid mode for members with Manage
// Server, answered privately.
import { PermissionFlagsBits } from 'discord.js';
import { read, type Command, type Invocation, type Subcommand } from '../../bot/command';
import { MAX_REASON_LENGTH } from '../../shared/moderation';
import { raidSummary, type RaidStatus } from '../../shared/raids';
import { endRaid, raidStatus, startRaid } from './raids';
import { commandActor } from './standing';

/** A time as Discord shows it to each reader, in their own time zone. */
const discordTime = (iso: string) => `<t:${Math.floor(Date.parse(iso) / 1000)}:t>`;

/** Raid mode in a few lines. */
function statusText(status: RaidStatus): string {
  const lines = [raidSummary(status, discordTime)];
  if (status.active && status.fallsBackAt) lines.push(`It falls back at ${discordTime(status.fallsBackAt)} unless more joins come in a burst.`);
  if (status.active && status.joinCount > 0) lines.push(`Set off by ${status.joinCount} joins in ${status.windowSeconds} seconds.`);
  if (status.active && status.startedByName) lines.push(`Started by ${status.startedByName}.`);
  lines.push(...status.problems);
  return lines.join('\n');
}

const reasonOption = { type: 'string' as const, name: 'reason', description: 'Why (kept in the log)', maxLength: MAX_REASON_LENGTH };
const reasonOf = (invocation: Invocation) => read.string(invocation, 'reason')?.trim() || null;

const status: Subcommand = {
  name: 'status',
  description: 'Whether raid mode is on, and what it did',
  run: async ({ services, guildId }) => statusText(await raidStatus(services, guildId)),
};

const start: Subcommand = {
  name: 'start',
  description: 'Start raid mode by hand: the raid rule’s responses, until an end or the quiet period',
  options: [reasonOption],
  async run(invocation) {
    const result = await startRaid(invocation.services, invocation.guildId, { actor: commandActor(invocation), reason: reasonOf(invocation) });
    return result?.message ?? 'Nothing changed.';
  },
};

const end: Subcommand = {
  name: 'end',
  description: 'End raid mode now: what it changed is put back',
  options: [reasonOption],
  async run(invocation) {
    const result = await endRaid(invocation.services, invocation.guildId, { actor: commandActor(invocation), reason: reasonOf(invocation) });
    return result?.message ?? 'Nothing changed.';
  },
};

/** /raid status|start|end: Manage Server, answered privately. */
const raid: Command = {
  name: 'raid',
  description: 'Raid mode: see it, start it by hand or end it',
  permission: PermissionFlagsBits.ManageGuild,
  ephemeral: true,
  subcommands: [status, start, end],
  run: async ({ prefix }) => `Use ${prefix}raid status, ${prefix}raid start [reason] or ${prefix}raid end [reason].`,
};

/** Raid protection's commands. */
export const raidCommands: Command[] = [raid];
