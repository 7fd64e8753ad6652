// What the XP rules need to know about a message's channel and member, read from discord.js's
// cache only when the guild has rules that look at it (the chat path stays cheap otherwise).
import type { GuildBasedChannel, GuildMember } from 'discord.js';
import { rulesNeedRoles, type XpRulesSettings } from '../../shared/xp-rules';

/** The channel's parent (a thread's channel, else a channel's category) and the member's roles, as the XP rules read them. */
export function xpRuleInputs(
  channel: Pick<GuildBasedChannel, 'parentId'>,
  member: Pick<GuildMember, 'roles'> | null,
  rules: XpRulesSettings,
): { parentId: string | null; roleIds: readonly string[] } {
  return { parentId: channel.parentId, roleIds: member && rulesNeedRoles(rules) ? [...member.roles.cache.keys()] : [] };
}
