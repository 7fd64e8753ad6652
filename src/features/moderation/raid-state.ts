// Raid mode in the store: one row per server, turned on and off by conditional updates, so with
// several processes on one store exactly one turns it on (and acts), one falls it back, one renews
// the invite pause. It survives restarts: a raid mode on when the bot stopped falls back after the
// next start once its quiet period has passed.
import { Op, UniqueConstraintError } from 'sequelize';
import type { Services } from '../../core/services';
import { acrossGuilds } from '../../db/cross-guild';
import type { RaidState } from '../../db/models/raid';
import type { RaidRule, RaidStatus } from '../../shared/raids';
import { fallsBackAt } from './raid-rules';

/** One guild's raid row. */
const rows = (services: Services, guildId: string) => services.store.guild(guildId).RaidState;

/** Whether the row is raid mode on. */
export const isActive = (row: RaidState | null): row is RaidState & { startedAt: Date } => Boolean(row?.startedAt && !row.endedAt);

/** The guild's row (raid mode on or not), or null when it never had one. */
export const raidRow = (services: Services, guildId: string) => rows(services, guildId).findOne();

/** Raid mode on in the guild, or null. */
export async function activeRaid(services: Services, guildId: string): Promise<(RaidState & { startedAt: Date }) | null> {
  const row = await raidRow(services, guildId);
  return isActive(row) ? row : null;
}

/** What starting raid mode records. */
export interface RaidStart {
  trigger: 'automatic' | 'manual';
  startedById: string | null;
  startedByName: string | null;
  joinCount: number;
  windowSeconds: number;
}

/**
 * Turns raid mode on, unless it is on already: a conditional update that one process wins. Returns
 * the row when this call turned it on, null when it was on already (then nothing is to be done).
 */
export async function claimStart(services: Services, guildId: string, start: RaidStart): Promise<RaidState | null> {
  const now = services.clock.now();
  const scope = rows(services, guildId);
  if (!(await scope.findOne())) {
    // The row is made idle first; two processes making it at once meet the unique index, and the loser carries on with the winner's.
    await scope
      .create({ startedAt: null, endedAt: null, trigger: null, joinCount: 0, windowSeconds: 0, timedOut: 0, updatedAt: now })
      .catch((error: unknown) => {
        if (!(error instanceof UniqueConstraintError)) throw error;
      });
  }
  const changed = await scope.update(
    {
      ...start,
      startedAt: now,
      endedAt: null,
      previousLevel: null,
      raisedTo: null,
      invitesPausedUntil: null,
      timedOut: 0,
      lastBurstAt: now,
      problems: null,
      updatedAt: now,
    },
    { where: { [Op.or]: [{ startedAt: null }, { endedAt: { [Op.ne]: null } }] } },
  );
  return changed === 1 ? scope.findOne() : null;
}

/** Records what raid mode did (or could not do) in Discord. */
export async function recordDone(
  services: Services,
  guildId: string,
  startedAt: Date,
  done: Partial<Pick<RaidState, 'previousLevel' | 'raisedTo' | 'invitesPausedUntil' | 'timedOut' | 'problems'>>,
): Promise<void> {
  await rows(services, guildId).update({ ...done, updatedAt: services.clock.now() }, { where: { startedAt, endedAt: null } });
}

/** Counts members raid mode timed out. */
export async function countTimedOut(services: Services, guildId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await rows(services, guildId).model.increment('timedOut', { by: count, where: { guildId, endedAt: null } });
}

/** A new burst while raid mode is on: the quiet period starts again from it. */
export async function noteBurst(services: Services, guildId: string): Promise<void> {
  const now = services.clock.now();
  await rows(services, guildId).update({ lastBurstAt: now, updatedAt: now }, { where: { endedAt: null, startedAt: { [Op.ne]: null } } });
}

/** Ends raid mode if this call is first to: a conditional update on the raid it read. */
export async function claimEnd(services: Services, row: RaidState & { startedAt: Date }): Promise<boolean> {
  const now = services.clock.now();
  const changed = await rows(services, row.guildId).update({ endedAt: now, updatedAt: now }, { where: { startedAt: row.startedAt, endedAt: null } });
  return changed === 1;
}

/** Moves the invite pause on, if no other process did since `from` was read; true when this call did. */
export async function claimRenewal(services: Services, row: RaidState, from: Date, to: Date): Promise<boolean> {
  const changed = await rows(services, row.guildId).update(
    { invitesPausedUntil: to, updatedAt: services.clock.now() },
    { where: { startedAt: row.startedAt, endedAt: null, invitesPausedUntil: from } },
  );
  return changed === 1;
}

/** Raid mode on in any guild (the periodic check falls each back after its quiet period). */
export function activeRaids(services: Services): Promise<RaidState[]> {
  return acrossGuilds(services.store, 'active raids').RaidState.findAll({ where: { startedAt: { [Op.ne]: null }, endedAt: null }, limit: 100 });
}

/** Raid mode as the card and /raid status show it. */
export function presentRaid(row: RaidState | null, rule: RaidRule): RaidStatus {
  const active = isActive(row);
  const last = row?.lastBurstAt ?? row?.startedAt ?? null;
  return {
    active,
    ruleEnabled: rule.enabled,
    startedAt: active ? (row?.startedAt?.toISOString() ?? null) : null,
    trigger: active && (row?.trigger === 'automatic' || row?.trigger === 'manual') ? row.trigger : null,
    startedByName: active ? (row?.startedByName ?? null) : null,
    joinCount: active ? (row?.joinCount ?? 0) : 0,
    windowSeconds: active ? (row?.windowSeconds ?? 0) : 0,
    raisedTo: active ? (row?.raisedTo ?? null) : null,
    previousLevel: active ? (row?.previousLevel ?? null) : null,
    invitesPausedUntil: active ? (row?.invitesPausedUntil?.toISOString() ?? null) : null,
    timedOut: active ? (row?.timedOut ?? 0) : 0,
    lastBurstAt: active ? (last?.toISOString() ?? null) : null,
    fallsBackAt: active && last ? fallsBackAt(last, rule.quietMinutes).toISOString() : null,
    endedAt: row?.endedAt?.toISOString() ?? null,
    problems: active && row?.problems ? row.problems.split('\n') : [],
  };
}
