import { Conflict, InvalidInput, NotFound } from '../../core/errors';
import type { Grant } from '../../core/access';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import type * as z from 'zod';
import type { GrantInput, GrantView } from '../../shared/settings';
import type { Actor } from '../../core/actor';

/** The name of a grant's role or member, from the live guild (null when it is gone). */
async function subjectName(services: Services, guildId: string, grant: Pick<Grant, 'subjectType' | 'subjectId'>): Promise<string | null> {
  if (grant.subjectType === 'role') return services.gateway.role(guildId, grant.subjectId)?.name ?? null;
  const member = services.gateway.client?.guilds.cache.get(guildId)?.members.cache.get(grant.subjectId);
  return member?.displayName ?? null;
}

/** "@Helpers" or "Pat", for the history. */
function describe(grant: Pick<Grant, 'subjectType' | 'subjectId'>, name: string | null): string {
  const label = name ?? grant.subjectId;
  return grant.subjectType === 'role' ? `@${label}` : label;
}

/** The guild's grants, with the names of their roles and members. */
export async function listGrants(services: Services, guildId: string): Promise<GrantView[]> {
  const grants = (await services.grants.grantsOf(guildId)) as (Grant & { createdBy: string; createdAt: Date })[];
  return Promise.all(
    grants.map(async (grant) => ({
      id: grant.id,
      subjectType: grant.subjectType,
      subjectId: grant.subjectId,
      subjectName: await subjectName(services, guildId, grant),
      level: grant.level,
      expiresAt: grant.expiresAt?.toISOString() ?? null,
      createdBy: grant.createdBy,
      createdAt: grant.createdAt.toISOString(),
    })),
  );
}

/**
 * Grants a role or a member view or edit access to the guild's dashboard, optionally until a
 * date; granting again changes the level or date. The role or member must be in the guild (not
 * @everyone); the grant is recorded in the history.
 */
export async function grantAccess(
  services: Services,
  guild: GuildSummary,
  input: z.output<typeof GrantInput>,
  actor: Actor & { userId: string },
): Promise<GrantView> {
  if (input.subjectType === 'role') {
    const role = services.gateway.role(guild.id, input.subjectId);
    if (!role) throw InvalidInput.field('subjectId', 'is not a role of this server', 'That role is not in this server.');
    if (role.isEveryone)
      throw InvalidInput.field(
        'subjectId',
        'cannot be @everyone: grant a role or a member',
        'Access cannot be granted to @everyone; grant it to a role or a member.',
      );
  } else {
    const member = await services.gateway.member(guild.id, input.subjectId);
    if (member.kind !== 'member') throw InvalidInput.field('subjectId', 'is not a member of this server', 'That user is not a member of this server.');
    if (member.isOwner) throw new Conflict('The owner already has full access.', 'subjectId');
  }
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= services.clock.ms())
    throw InvalidInput.field('expiresAt', 'must be in the future', 'The expiry date must be in the future.');
  const grant = await services.grants.grant(guild.id, { ...input, expiresAt, createdBy: actor.userId });
  const name = await subjectName(services, guild.id, grant);
  const until = expiresAt ? ` until ${expiresAt.toISOString()}` : '';
  await services.settings.record(guild.id, {
    actor,
    kind: 'grant',
    summary: `Granted ${grant.level} access to ${describe(grant, name)}${until}`,
    changes: [{ field: `access:${grant.subjectType}:${grant.subjectId}`, from: null, to: { level: grant.level, expiresAt: expiresAt?.toISOString() ?? null } }],
  });
  return {
    id: grant.id,
    subjectType: grant.subjectType,
    subjectId: grant.subjectId,
    subjectName: name,
    level: grant.level,
    expiresAt: expiresAt?.toISOString() ?? null,
    createdBy: grant.createdBy,
    createdAt: grant.createdAt.toISOString(),
  };
}

/** Takes a grant away (recorded in the history). */
export async function revokeAccess(services: Services, guild: GuildSummary, grantId: number, actor: Actor): Promise<void> {
  const grant = await services.grants.revoke(guild.id, grantId);
  if (!grant) throw new NotFound('That grant does not exist (it may have been revoked already).');
  const name = await subjectName(services, guild.id, grant);
  await services.settings.record(guild.id, {
    actor,
    kind: 'revoke',
    summary: `Revoked ${grant.level} access from ${describe(grant, name)}`,
    changes: [
      { field: `access:${grant.subjectType}:${grant.subjectId}`, from: { level: grant.level, expiresAt: grant.expiresAt?.toISOString() ?? null }, to: null },
    ],
  });
}
