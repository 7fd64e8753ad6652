// The one way the bot gives or takes a role on a member's behalf (reaction roles, level rewards,
// rule verification, the auto-assigned member role). One request per role: PUT or DELETE of
// /guilds/:g/members/:u/roles/:r is an atomic change on Discord's side, where a PATCH of the role
// list computed from discord.js's cache would undo a role given meanwhile. When Discord does not
// answer (5xx after discord.js's own retries, a timeout, the network), the change is queued in
// the store and tried again on a schedule (retry.ts); a refusal that trying again will not change
// (missing permissions, a role above the bot, an unknown role) is kept as failed, with its
// sentence, for the dashboard; a member who left is dropped.
//
// A domain module of its own feature (not src/bot): it decides what is retried, writes the queue,
// and its retrier re-checks the rules of the features that asked (is the reaction still there,
// does the level still earn it), which the bot face knows nothing about.
import { DiscordAPIError, HTTPError, RESTJSONErrorCodes, type GuildMember } from 'discord.js';
import { Op, UniqueConstraintError, type CreationAttributes } from 'sequelize';
import { askDiscord } from '../../bot/discord-errors';
import { DiscordRefused } from '../../core/errors';
import type { Services } from '../../core/services';
import type { RoleGrantRetry } from '../../db/models/role-grant';
import type { RoleGrantAction, RoleGrantSource, RoleGrantStatus } from '../../shared/role-grants';
import { nextAttemptAt } from './schedule';

/** A role to give or take, and why (for the queue and Discord's audit log). */
export interface RoleChangeRequest {
  roleId: string;
  action: RoleGrantAction;
  source: RoleGrantSource;
  /** The reaction role entry or level reward it comes from. */
  sourceId?: number | null;
  /** Discord's audit-log reason: "Reaction role", "Level 5 reward". */
  reason: string;
}

/**
 * What became of a change: done (now, or nothing to do: `changed` false), pending (Discord did not
 * answer; it is queued and the caller reports nothing yet), failed (Discord refused: the caller
 * reports `error`), or dropped (the member left the server).
 */
export type RoleChange =
  | { status: 'done'; changed: boolean }
  | { status: 'pending'; grantId: number; message: string }
  | { status: 'failed'; error: DiscordRefused }
  | { status: 'dropped'; message: string };

/** Why a call to Discord for a grant did not go through. */
export type GrantTrouble = { kind: 'unavailable'; message: string } | { kind: 'refused'; error: DiscordRefused } | { kind: 'gone'; message: string };

/** The answer of a Discord call made for a grant: its value, or the trouble. */
export type GrantCall<T> = { ok: true; value: T } | { ok: false; trouble: GrantTrouble };

/** Error codes of the network failing under discord.js's REST client (undici and Node). */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'ENETUNREACH', 'EHOSTUNREACH']);

/** The network failure behind an error (its code, or "a timeout"), or null when it is none. */
function networkFailure(error: unknown): string | null {
  if (error instanceof Error && error.name === 'AbortError') return 'a timeout';
  let current: unknown = error;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR_'))) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Runs a Discord call for a grant. Discord not answering (an HTTP error after discord.js's retries,
 * the network) comes back as `unavailable`, said without "try again" since the bot tries again
 * itself; an unknown member as `gone`; any other refusal as `refused`, in the words askDiscord
 * uses everywhere. Anything else (a bug) is thrown.
 */
export async function callDiscord<T>(call: () => Promise<T>, botName: string, explain?: (code: number) => string | undefined): Promise<GrantCall<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof HTTPError)
      return { ok: false, trouble: { kind: 'unavailable', message: `Discord did not answer (${error.status} ${error.message}).` } };
    const network = networkFailure(error);
    if (network) return { ok: false, trouble: { kind: 'unavailable', message: `Discord could not be reached (${network}).` } };
    if (!(error instanceof DiscordAPIError)) throw error;
    // askDiscord turns Discord's refusal into the sentence every face shows.
    const refusal = await askDiscord(() => Promise.reject(error), botName, explain).catch((refused: unknown) => refused);
    if (!(refusal instanceof DiscordRefused)) throw error;
    if (refusal.code === RESTJSONErrorCodes.UnknownMember) return { ok: false, trouble: { kind: 'gone', message: 'The member is no longer in the server.' } };
    return { ok: false, trouble: { kind: 'refused', error: refusal } };
  }
}

/** The bot's name in the member's guild, for sentences. */
export function botNameOf(member: GuildMember): string {
  return member.guild.members.me?.displayName ?? 'The bot';
}

/** A role's name for sentences: live, else as stored, else its id. */
function roleNameOf(member: GuildMember, roleId: string, stored?: string | null): string {
  return member.guild.roles.cache.get(roleId)?.name ?? stored ?? roleId;
}

/**
 * Gives or takes one role with one request, unless the member already is as asked (by the bot's
 * cache: `changed` false). Missing permissions are said with the role's name and the fix.
 */
export async function sendRoleChange(member: GuildMember, roleId: string, action: RoleGrantAction, reason: string): Promise<GrantCall<{ changed: boolean }>> {
  if ((action === 'add') === member.roles.cache.has(roleId)) return { ok: true, value: { changed: false } };
  const botName = botNameOf(member);
  const called = await callDiscord(
    () => (action === 'add' ? member.roles.add(roleId, reason) : member.roles.remove(roleId, reason)),
    botName,
    (code) =>
      code === RESTJSONErrorCodes.MissingPermissions
        ? `${botName} cannot ${action === 'add' ? 'give' : 'take'} @${roleNameOf(member, roleId)}: it needs Manage Roles and a role above it.`
        : undefined,
  );
  return called.ok ? { ok: true, value: { changed: true } } : called;
}

const OPEN: RoleGrantStatus[] = ['pending', 'failed'];

/** The member's open (pending or failed) grant of the role, if any: there is at most one. */
export function openGrant(services: Services, guildId: string, userId: string, roleId: string): Promise<RoleGrantRetry | null> {
  return services.store.guild(guildId).RoleGrantRetry.findOne({ where: { userId, roleId, status: { [Op.in]: OPEN } } });
}

/** The columns that say what a grant is, from a request. */
function describe(member: GuildMember, request: RoleChangeRequest) {
  return {
    action: request.action,
    source: request.source,
    sourceId: request.sourceId ?? null,
    reason: request.reason.slice(0, 300),
    memberName: member.displayName.slice(0, 100),
    roleName: roleNameOf(member, request.roleId).slice(0, 100),
  };
}

/**
 * Writes the member's open grant of the role: `change` updates the one there, else `create` makes
 * it. Two processes creating it at once meet the partial unique index; the loser updates instead.
 */
async function writeOpen(
  services: Services,
  member: GuildMember,
  roleId: string,
  change: (existing: RoleGrantRetry) => Partial<RoleGrantRetry> | null,
  create: () => CreationAttributes<RoleGrantRetry>,
): Promise<RoleGrantRetry> {
  for (let round = 0; ; round += 1) {
    const existing = await openGrant(services, member.guild.id, member.id, roleId);
    if (existing) {
      const values = change(existing);
      if (values) await existing.update(values);
      return existing;
    }
    try {
      return await services.store.guild(member.guild.id).RoleGrantRetry.create(create());
    } catch (error) {
      if (!(error instanceof UniqueConstraintError) || round > 0) throw error;
    }
  }
}

/**
 * Queues a change Discord did not answer: its first retry a minute from now. A grant already
 * waiting for the same change keeps its schedule (it is not queued twice); an open grant of the
 * opposite change, or a failed one, is replaced by this one, schedule started over.
 */
async function queueRetry(services: Services, member: GuildMember, request: RoleChangeRequest, message: string): Promise<RoleGrantRetry> {
  const now = services.clock.now();
  const fresh = {
    ...describe(member, request),
    status: 'pending' as const,
    attempts: 1,
    nextAttemptAt: nextAttemptAt(1, now, now),
    lastError: message,
    claimedUntil: null,
    updatedAt: now,
  };
  return writeOpen(
    services,
    member,
    request.roleId,
    (existing) => (existing.status === 'pending' && existing.action === request.action ? { lastError: message, updatedAt: now } : { ...fresh, createdAt: now }),
    () => ({ guildId: member.guild.id, userId: member.id, roleId: request.roleId, ...fresh, createdAt: now }),
  );
}

/** Keeps a refusal as the member's failed grant of the role (one row, however often it is refused). */
async function recordFailure(services: Services, member: GuildMember, request: RoleChangeRequest, message: string): Promise<void> {
  const now = services.clock.now();
  const failed = {
    ...describe(member, request),
    status: 'failed' as const,
    nextAttemptAt: null,
    lastError: message.slice(0, 500),
    claimedUntil: null,
    updatedAt: now,
  };
  await writeOpen(
    services,
    member,
    request.roleId,
    (existing) => ({ ...failed, attempts: existing.attempts + 1 }),
    () => ({ guildId: member.guild.id, userId: member.id, roleId: request.roleId, ...failed, attempts: 1, createdAt: now }),
  );
}

/** Settles the member's open grant of the role, if any, as `decide` says from it. */
async function settleOpen(
  services: Services,
  member: GuildMember,
  roleId: string,
  decide: (open: RoleGrantRetry) => { status: 'done' | 'dropped'; lastError: string | null },
): Promise<void> {
  const open = await openGrant(services, member.guild.id, member.id, roleId);
  if (!open) return;
  await services.store
    .guild(open.guildId)
    .RoleGrantRetry.update(
      { ...decide(open), nextAttemptAt: null, claimedUntil: null, updatedAt: services.clock.now() },
      { where: { id: open.id, status: open.status } },
    );
}

/**
 * Gives or takes a role for a feature: tries now; Discord not answering queues it for retry
 * (`pending`), a refusal is kept as failed and returned in words, a member who left is dropped.
 * Every caller uses this, so the rules of retrying are the same for every source.
 */
export async function changeRole(services: Services, member: GuildMember, request: RoleChangeRequest): Promise<RoleChange> {
  const sent = await sendRoleChange(member, request.roleId, request.action, request.reason);
  if (sent.ok) {
    // An open grant of the same change is done now; one of the opposite change is replaced by it.
    // Nothing to do (the member already is as asked) reads no row: a catch-up over thousands of
    // reactors would read one each; a grant left open meanwhile settles on its retry or Retry now.
    if (sent.value.changed) {
      await settleOpen(services, member, request.roleId, (open) =>
        open.action === request.action
          ? { status: 'done', lastError: open.lastError }
          : { status: 'dropped', lastError: 'A later change of the same role replaced it.' },
      );
    }
    return { status: 'done', changed: sent.value.changed };
  }
  const { trouble } = sent;
  const where = { guildId: member.guild.id, userId: member.id, roleId: request.roleId, source: request.source };
  switch (trouble.kind) {
    case 'unavailable': {
      const row = await queueRetry(services, member, request, trouble.message);
      services.logger.info({ ...where, grantId: row.id, reason: trouble.message }, 'Discord did not answer a role change; it is queued for retry');
      return { status: 'pending', grantId: row.id, message: trouble.message };
    }
    case 'refused':
      await recordFailure(services, member, request, trouble.error.message);
      services.logger.warn({ ...where, reason: trouble.error.message }, 'Discord refused a role change');
      return { status: 'failed', error: trouble.error };
    case 'gone':
      await settleOpen(services, member, request.roleId, () => ({ status: 'dropped', lastError: trouble.message }));
      return { status: 'dropped', message: trouble.message };
  }
}

/**
 * The refusals of several changes as one DiscordRefused naming only the refused roles (what could
 * be given was given), or null when none was refused.
 */
export function refusalOf(changes: readonly RoleChange[]): DiscordRefused | null {
  const refused = changes.flatMap((change) => (change.status === 'failed' ? [change.error] : []));
  const [first] = refused;
  return first ? new DiscordRefused(first.code, refused.map((error) => error.message).join(' ')) : null;
}
