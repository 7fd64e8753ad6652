// Before each retry, whether the grant is still wanted by the rule that asked for it: time has
// passed (up to a day), and the member may have taken the reaction off, the admin switched the
// feature off or changed its role. A grant no longer wanted is dropped, with the reason.
import { RESTJSONErrorCodes, type Guild, type GuildMember } from 'discord.js';
import type { Services } from '../../core/services';
import type { RoleGrantRetry } from '../../db/models/role-grant';
import type { ReactionRole } from '../../db/models/community';
import { rewardRolesKept } from '../leveling/public';
import { matches } from '../reaction-roles/public';
import { botNameOf, callDiscord, type GrantCall } from './grants';

/** A decided answer: null when still wanted, else why not (a sentence). */
const decided = (reason: string | null): GrantCall<string | null> => ({ ok: true, value: reason });

/** Whether the member (still) reacts with the entry's emoji, asked of Discord; a deleted message says so. */
async function memberReacts(guild: Guild, member: GuildMember, entry: ReactionRole): Promise<GrantCall<boolean | 'gone'>> {
  const channel = guild.channels.cache.get(entry.channelId);
  if (!channel?.isTextBased()) return { ok: true, value: 'gone' };
  const botName = botNameOf(member);
  // Asked of Discord even when cached: the cached reactions are those the bot saw, and it missed some.
  const fetched = await callDiscord(() => channel.messages.fetch({ message: entry.messageId, force: true }), botName);
  if (!fetched.ok) {
    if (fetched.trouble.kind === 'refused' && fetched.trouble.error.code === RESTJSONErrorCodes.UnknownMessage) return { ok: true, value: 'gone' };
    return fetched;
  }
  const reaction = fetched.value.reactions.cache.find((candidate) => matches(entry, candidate.emoji));
  if (!reaction) return { ok: true, value: false };
  // The first reactor after the id just below the member's is the member, if they react.
  const after = (BigInt(member.id) - 1n).toString();
  const users = await callDiscord(() => reaction.users.fetch({ limit: 1, after }), botName);
  return users.ok ? { ok: true, value: users.value.has(member.id) } : users;
}

/** A reaction role's grant: the entry is active, gives this role, and the reaction says so still. */
async function reactionRoleUnwanted(services: Services, guild: Guild, member: GuildMember, grant: RoleGrantRetry): Promise<GrantCall<string | null>> {
  const entry = grant.sourceId === null ? null : await services.store.guild(guild.id).ReactionRole.findOne({ where: { id: grant.sourceId } });
  if (!entry || !entry.isActive || entry.roleId !== grant.roleId) return decided('The reaction role was deleted, switched off or changed.');
  const reacts = await memberReacts(guild, member, entry);
  if (!reacts.ok) return reacts;
  if (reacts.value === 'gone') return decided('The message of the reaction role was deleted.');
  // Drop mode takes the role from whoever reacts; every other mode gives it to them (and a
  // removal queued when the reaction was taken off stands while it stays off).
  const wanted = grant.action === 'add' ? entry.mode !== 'drop' && reacts.value : entry.mode === 'drop' ? reacts.value : !reacts.value;
  if (wanted) return decided(null);
  return decided(reacts.value ? 'The member reacted again.' : 'The member took their reaction off.');
}

/** A level reward's grant: the reward still exists and the member's level (still) earns the role, or no longer does for a removal. */
async function levelRewardUnwanted(services: Services, guild: Guild, grant: RoleGrantRetry): Promise<string | null> {
  const rewards = await services.store.guild(guild.id).LevelReward.findAll({ where: {} });
  if (!rewards.some((reward) => reward.roleId === grant.roleId)) return 'The level reward was deleted.';
  const settings = await services.settings.get(guild.id);
  const row = await services.store.guild(guild.id).UserLevel.findOne({ where: { userId: grant.userId } });
  const level = row?.level ?? 1;
  const earned = rewardRolesKept(rewards, level, settings.levelRewardsStack).has(grant.roleId);
  if (grant.action === 'add') return earned ? null : `Level ${level} no longer earns this role.`;
  return earned ? `Level ${level} earns this role again.` : null;
}

/**
 * Why a grant is no longer wanted (a sentence), or null when it still is; `ok: false` when Discord
 * could not be asked (the retry waits for its next turn). The member and role exist: the retrier
 * checked them.
 */
export async function whyUnwanted(services: Services, guild: Guild, member: GuildMember, grant: RoleGrantRetry): Promise<GrantCall<string | null>> {
  switch (grant.source) {
    case 'reactionRole':
      return reactionRoleUnwanted(services, guild, member, grant);
    case 'levelReward':
      return decided(await levelRewardUnwanted(services, guild, grant));
    case 'verification': {
      const settings = await services.settings.get(guild.id);
      const wanted = grant.action === 'add' && settings.verificationEnabled && settings.verificationRoleId === grant.roleId;
      return decided(wanted ? null : 'Rule verification is off now, or gives another role.');
    }
    case 'memberRole': {
      const settings = await services.settings.get(guild.id);
      const wanted = grant.action === 'add' && settings.autoRoleEnabled && settings.memberRoleId === grant.roleId;
      return decided(wanted ? null : 'Auto-assign is off now, or gives another role.');
    }
    case 'roleMenu': {
      // A pick on a role menu: still wanted while the menu exists and still offers the role.
      const menu = grant.sourceId === null ? null : await services.store.guild(guild.id).RoleMenu.findOne({ where: { id: grant.sourceId } });
      const offered = menu ? (JSON.parse(menu.options) as { roleId: string }[]).some((option) => option.roleId === grant.roleId) : false;
      return decided(offered ? null : 'The role menu was deleted, or no longer offers this role.');
    }
  }
}
