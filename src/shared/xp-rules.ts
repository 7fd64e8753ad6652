// XP rules (issue 25, point 4): channels and roles that earn no XP, and per-channel and per-role
// multipliers on top of the text, voice, weekend and boost ones. One pure rule, xpRuleFactor, for
// chat and voice alike, and the page's explanation of it.
import * as z from 'zod';
import { Snowflake } from './auth';

/** The range of a channel's or role's multiplier. */
export const XP_RULE_MULTIPLIER = { min: 0.1, max: 5 } as const;
/** How many channels or roles each list holds. */
export const XP_RULES_MAX = 50;

const idList = () =>
  z
    .array(Snowflake, { error: 'must be a list of Discord ids' })
    .max(XP_RULES_MAX, `must have at most ${XP_RULES_MAX} entries`)
    .refine((ids) => new Set(ids).size === ids.length, 'lists the same one twice');

const multiplierList = () =>
  z
    .array(
      z
        .object({
          id: Snowflake,
          multiplier: z
            .number({ error: 'must be a number' })
            .min(XP_RULE_MULTIPLIER.min, `must be between ${XP_RULE_MULTIPLIER.min} and ${XP_RULE_MULTIPLIER.max}`)
            .max(XP_RULE_MULTIPLIER.max, `must be between ${XP_RULE_MULTIPLIER.min} and ${XP_RULE_MULTIPLIER.max}`),
        })
        .strict(),
      { error: 'must be a list of multipliers' },
    )
    .max(XP_RULES_MAX, `must have at most ${XP_RULES_MAX} entries`)
    .refine((rows) => new Set(rows.map((row) => row.id)).size === rows.length, 'lists the same one twice');

/** The XP rules' settings (part of the leveling slice). */
export const XpRulesSettingsSchema = z.object({
  xpExcludedChannelIds: idList(),
  xpExcludedRoleIds: idList(),
  xpChannelMultipliers: multiplierList(),
  xpRoleMultipliers: multiplierList(),
});
export type XpRulesSettings = z.infer<typeof XpRulesSettingsSchema>;

/** No rules: everyone earns as before. */
export const XP_RULES_DEFAULTS: XpRulesSettings = {
  xpExcludedChannelIds: [],
  xpExcludedRoleIds: [],
  xpChannelMultipliers: [],
  xpRoleMultipliers: [],
};

/** How the rules combine, as the dashboard says it. */
export const XP_RULES_EXPLAINED =
  'A no-XP channel or role wins over everything. Otherwise the channel’s multiplier and the highest multiplier among the member’s roles ' +
  '(several boosted roles do not add up: the highest counts) multiply the text or voice, weekend and boost multipliers. ' +
  'A channel without a rule of its own follows its parent’s: a thread its channel’s, a channel its category’s.';

/** Where XP is earned and by whom: the channel (a thread first, then its parent), and the member's roles. */
export interface XpContext {
  /** The most specific first: a thread, then its parent channel (or a channel, then its category). */
  channelIds: readonly string[];
  roleIds: Iterable<string>;
}

/** Whether any rule depends on the member's roles (so callers read them only then). */
export function rulesNeedRoles(rules: XpRulesSettings): boolean {
  return rules.xpExcludedRoleIds.length > 0 || rules.xpRoleMultipliers.length > 0;
}

/**
 * The factor XP is multiplied by under the guild's XP rules: 0 in a no-XP channel or for a member
 * with a no-XP role; else the channel's multiplier (the most specific one set) times the highest
 * multiplier among the member's roles (1 where none is set).
 */
export function xpRuleFactor(rules: XpRulesSettings, context: XpContext): number {
  // Most guilds have no rules: every message passes here, so nothing is built for them.
  if (rules.xpExcludedChannelIds.length + rules.xpExcludedRoleIds.length + rules.xpChannelMultipliers.length + rules.xpRoleMultipliers.length === 0) return 1;
  if (context.channelIds.some((id) => rules.xpExcludedChannelIds.includes(id))) return 0;
  const roleIds = new Set(context.roleIds);
  if (rules.xpExcludedRoleIds.some((id) => roleIds.has(id))) return 0;
  let channel = 1;
  for (const id of context.channelIds) {
    const rule = rules.xpChannelMultipliers.find((row) => row.id === id);
    if (rule) {
      channel = rule.multiplier;
      break;
    }
  }
  let role: number | null = null;
  for (const row of rules.xpRoleMultipliers) if (roleIds.has(row.id) && (role === null || row.multiplier > role)) role = row.multiplier;
  return channel * (role ?? 1);
}
