// Factories in the style of Outline's: each makes what it needs (a member in the sandbox, a
// signed-in account, a grant), with overrides, so tests never lean on each other's state.
import { randomInt } from 'node:crypto';
import type { Harness } from './helpers/harness';
import { waitFor } from './helpers/wait';

let counter = 0;
/** A unique suffix for names. */
function unique(): string {
  counter += 1;
  return `${counter}${randomInt(1000, 9999)}`;
}

/** A new member of the demo guild (GUILD_MEMBER_ADD), once the bot has seen them join. */
export async function buildMember(h: Harness, overrides: { username?: string; roleIds?: string[]; guildId?: string } = {}) {
  const guildId = overrides.guildId ?? h.guildId;
  const member = h.world.addMember(guildId, { username: overrides.username ?? `member_${unique()}`, roleIds: overrides.roleIds ?? [] });
  await waitFor(() => h.product.client.guilds.cache.get(guildId)?.members.cache.has(member.userId), 5000, 'the bot to see the new member');
  return { userId: member.userId, username: h.world.users.get(member.userId)?.username ?? '' };
}

/** A member signed in to the dashboard, with a role (e.g. Moderator for Manage Server) when given. */
export async function buildAccount(h: Harness, overrides: { roleIds?: string[] } = {}) {
  const member = await buildMember(h, overrides);
  return { ...member, session: await h.signIn(member.userId) };
}

/** Delegated dashboard access for a member (view or edit), optionally expiring. */
export async function buildGrant(
  h: Harness,
  overrides: { subjectId: string; level?: 'view' | 'edit'; subjectType?: 'role' | 'member'; expiresAt?: Date | null },
) {
  return h.product.services.grants.grant(h.guildId, {
    subjectType: overrides.subjectType ?? 'member',
    subjectId: overrides.subjectId,
    level: overrides.level ?? 'view',
    expiresAt: overrides.expiresAt ?? null,
    createdBy: h.demo.ownerUserId,
  });
}
