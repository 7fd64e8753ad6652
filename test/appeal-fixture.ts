// The route fixture of the moderators' appeal routes (issue 24, point 6), beside test/factories.ts:
// a real ban in the sandbox with its case, an open appeal of it, and a caller who may decide it.
import { randomInt } from 'node:crypto';
import { PermissionFlagsBits } from 'discord.js';
import type { Services } from '../src/core/services';
import { moderate } from '../src/features/moderation/actions';
import { botActor } from '../src/features/moderation/standing';
import { waitFor } from './helpers/wait';

/** A unique suffix for names. */
const unique = () => `${Date.now() % 100_000}${randomInt(1000, 9999)}`;

/**
 * Deciding an appeal takes Ban Members in Discord, whatever the dashboard access: a caller without
 * it (an editor by a grant) gets a role with Ban Members alone, which changes no access level.
 */
async function canBan(
  services: Services,
  guildId: string,
  callerId: string,
  control: <T>(method: string, path: string, body: unknown) => Promise<T>,
): Promise<void> {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const caller = await guild?.members.fetch(callerId).catch(() => null);
  if (!guild || !caller || caller.permissions.has(PermissionFlagsBits.BanMembers)) return;
  const role = await control<{ id: string }>('POST', `/guilds/${guildId}/roles`, { name: `Appeal reviewers ${unique()}`, permissions: ['BanMembers'] });
  await control('PATCH', `/guilds/${guildId}/members/${callerId}`, { roles: [...caller.roles.cache.keys()].filter((id) => id !== guildId).concat(role.id) });
  await waitFor(() => guild.members.cache.get(callerId)?.permissions.has(PermissionFlagsBits.BanMembers), 5000, 'the caller to have Ban Members');
}

/**
 * An open ban appeal (issue 24, point 6): a new member joins the sandbox, is banned through
 * `moderate` (a real ban in Discord and its case), and appeals it, stored as it is.
 */
export async function openAppeal(services: Services, guildId: string, callerId: string): Promise<Record<string, string>> {
  const control = async <T>(method: string, path: string, body: unknown) => {
    const response = await fetch(`${services.meta.oauthBase}/_sandbox${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`the sandbox answered ${response.status} to ${path}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  await canBan(services, guildId, callerId, control);
  const { id: userId } = await control<{ id: string }>('POST', `/guilds/${guildId}/members`, { username: `appellant_${unique()}` });
  await waitFor(() => services.gateway.client?.guilds.cache.get(guildId)?.members.cache.has(userId), 5000, 'the bot to see the new member');
  const ban = await moderate(services, guildId, { action: 'ban', targetId: userId, reason: 'Spam' }, botActor(services, guildId));
  const appeal = await services.store.models.ModerationAppeal.create({
    guildId,
    caseNumber: ban.caseNumber,
    userId,
    userName: 'appellant',
    text: 'I understand the rules now and will not spam again.',
    status: 'open',
    decidedById: null,
    decidedByName: null,
    decisionReason: null,
    unbanCaseNumber: null,
    dmDelivered: null,
    createdAt: services.clock.now(),
    decidedAt: null,
  });
  return { id: String(appeal.id) };
}
