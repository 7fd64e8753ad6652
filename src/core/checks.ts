import { PermissionFlagsBits } from 'discord.js';
import { ConfirmationRequired, Forbidden, InvalidInput } from './errors';
import { cannotGiveRole, dangerousRoleWarning } from './role-rights';
import type { Services } from './services';
import type { ChannelView } from '../bot/gateway';
import { VERIFICATION_MISSING, welcomeChannelProblem } from '../shared/welcome';
import type { GuildSettings, SettingKey } from '../shared/settings';
import { checkWebhookTarget, WebhookTargetRefused } from './webhook-target';

/** What the bot must be able to do in a channel. */
export type ChannelNeed = 'send' | 'embed' | 'react' | 'readHistory' | 'manageMessages';

/** Something the bot cannot do with a configured channel or role: what is wrong, and how to fix it. */
export interface Problem {
  problem: string;
  fix: string;
}

/** One sentence of a problem and its fix, as a form field's error. */
export function problemText({ problem, fix }: Problem): string {
  return fix ? `${problem} ${fix}` : problem;
}

/** What the bot must be able to do in each configured channel. */
export const CHANNEL_NEEDS: Partial<Record<SettingKey, ChannelNeed[]>> = {
  welcomeChannelId: ['send'],
  goodbyeChannelId: ['send'],
  rulesChannelId: ['send', 'embed', 'react', 'readHistory'],
  logChannelId: ['send', 'embed'],
};

/** Roles the bot gives to members. */
export const ROLE_FIELDS: SettingKey[] = ['verificationRoleId', 'memberRoleId'];

/** Each role setting the bot hands out, and the switch that makes it do so. */
const ROLE_SWITCHES = { memberRoleId: 'autoRoleEnabled', verificationRoleId: 'verificationEnabled' } as const satisfies Partial<Record<SettingKey, SettingKey>>;

/**
 * The roles a settings write makes the bot hand out anew: a role setting changed, or its switch
 * turned on (a role stored while the switch was off, by someone else, is handed out from then on).
 */
export function settingsHandouts(next: GuildSettings, changed: readonly SettingKey[]): RoleHandout[] {
  return Object.entries(ROLE_SWITCHES).flatMap(([field, toggle]) => {
    const roleId = next[field as keyof typeof ROLE_SWITCHES];
    const starts = changed.includes(field as SettingKey) || (changed.includes(toggle) && next[toggle]);
    return roleId && starts ? [{ field, roleId }] : [];
  });
}

const NEED_WORDS: Record<ChannelNeed, string> = {
  send: 'send messages',
  embed: 'embed links',
  react: 'add reactions',
  readHistory: 'read message history',
  manageMessages: 'remove other reactions',
};
const NEED_PERMISSIONS: Record<ChannelNeed, string> = {
  send: 'View Channel and Send Messages',
  embed: 'Embed Links',
  react: 'Add Reactions',
  readHistory: 'Read Message History',
  manageMessages: 'Manage Messages',
};

/** The bot's name in the guild, for sentences. */
export function botNameIn(services: Services, guildId: string): string {
  return services.gateway.botMember(guildId)?.displayName ?? 'The bot';
}

/** Whether the bot can do `need` in the channel. */
function can(channel: ChannelView, need: ChannelNeed): boolean {
  return need === 'send' ? channel.bot.send : channel.bot[need] && channel.bot.view;
}

/**
 * What stops the bot from using a channel for `needs`, from the live gateway: the channel is
 * gone, is not a text channel, or lacks a permission there. Null when it can.
 */
export function channelProblem(services: Services, guildId: string, channelId: string, needs: readonly ChannelNeed[]): Problem | null {
  const channel = services.gateway.channel(guildId, channelId);
  if (!channel) return { problem: 'is not a channel of this server', fix: 'Pick another channel.' };
  if (channel.kind !== 'text' && channel.kind !== 'announcement') return { problem: `#${channel.name} is not a text channel`, fix: 'Pick a text channel.' };
  const missing = needs.filter((need) => !can(channel, need));
  if (missing.length === 0) return null;
  return {
    problem: `${botNameIn(services, guildId)} cannot ${missing.map((need) => NEED_WORDS[need]).join(' or ')} in #${channel.name}.`,
    fix: `Give its role ${missing.map((need) => NEED_PERMISSIONS[need]).join(', ')} there.`,
  };
}

/**
 * What stops the bot from giving a role, from the live gateway: not a role of the guild,
 * @everyone, managed, at or above the bot's highest role, or the bot lacking Manage Roles.
 */
export function roleProblem(services: Services, guildId: string, roleId: string): Problem | null {
  const { gateway } = services;
  const bot = gateway.botMember(guildId);
  const botName = bot?.displayName ?? 'The bot';
  const role = gateway.role(guildId, roleId);
  if (!role) return { problem: 'is not a role of this server', fix: 'Pick another role.' };
  if (role.isEveryone) return { problem: '@everyone cannot be given to members', fix: 'Pick another role.' };
  if (role.managed) return { problem: `@${role.name} is managed by an integration and cannot be given to members`, fix: 'Pick another role.' };
  if (!role.belowBot) {
    return {
      problem: `@${role.name} is above ${botName}'s highest role (@${bot?.highestRoleName ?? '?'}).`,
      fix: `Move the ${botName} role above it in Server Settings → Roles.`,
    };
  }
  if (bot && (bot.permissions & PermissionFlagsBits.ManageRoles) === 0n)
    return { problem: `${botName} needs the Manage Roles permission to give @${role.name}.`, fix: 'Give its role Manage Roles in Server Settings → Roles.' };
  return null;
}

/** Who asks for roles to be handed out through the bot, and the dangerous roles they confirmed. */
export interface RoleRequest {
  /** The person acting (their live Discord standing decides); null for the bot itself (a change it makes on its own). */
  actorId: string | null;
  /** Roles carrying staff permissions the person confirmed after being warned (the dashboard's dialog). */
  confirmed: readonly string[];
  /** A preview that stores nothing (an import's dry run): who asks is checked, the confirmation is asked for when it is applied. */
  preview?: boolean;
}

/** A role a configuration will make the bot hand out, and the input field that names it. */
export interface RoleHandout {
  field: string;
  roleId: string;
  /** What hands it out, for the sentence ("The shop item VIP"); the field's role otherwise. */
  what?: string;
}

/**
 * The one rule for every configuration that makes the bot hand out a role (shop items, the member
 * and verification roles, level rewards, reaction roles): the bot must be able to give it (400
 * naming the field); the person asking must be able to give it in Discord themselves (403, see
 * cannotGiveRole: a dashboard grant or Manage Server adds no Discord power); and a role carrying
 * staff permissions needs their explicit confirmation, even from the owner (409
 * confirmation_required, naming each role and what it carries).
 */
export async function checkRoleHandouts(services: Services, guildId: string, request: RoleRequest, handouts: readonly RoleHandout[]): Promise<void> {
  if (handouts.length === 0) return;
  const botFields: Record<string, string> = {};
  for (const { field, roleId } of handouts) {
    const problem = roleProblem(services, guildId, roleId);
    if (problem) botFields[field] = problemText(problem);
  }
  if (Object.keys(botFields).length > 0) throw new InvalidInput(botFields);
  const roles = handouts.flatMap((handout) => {
    const role = services.gateway.role(guildId, handout.roleId);
    return role ? [{ handout, role }] : [];
  });
  if (request.actorId !== null) {
    const actor = await services.gateway.member(guildId, request.actorId);
    if (actor.kind !== 'member') throw new Forbidden('You are not a member of that server, so you cannot hand out its roles.');
    for (const { role } of roles) {
      const refusal = cannotGiveRole(actor, role);
      if (refusal) throw new Forbidden(refusal);
    }
  }
  if (request.preview) return;
  const warnings: Record<string, string> = {};
  const unconfirmed = new Set<string>();
  for (const { handout, role } of roles) {
    const warning = request.confirmed.includes(role.id) ? null : dangerousRoleWarning(role);
    if (!warning) continue;
    warnings[handout.field] = handout.what ? `${handout.what} hands out @${role.name}. ${warning}` : warning;
    unconfirmed.add(role.id);
  }
  if (unconfirmed.size === 0) return;
  const them = unconfirmed.size === 1 ? 'it' : 'them';
  throw new ConfirmationRequired(warnings, `${Object.values(warnings).join(' ')} Confirm that you mean to hand ${them} out.`, [...unconfirmed]);
}

/**
 * What is wrong with a role a stored configuration hands out now: what stops the bot from giving
 * it (an error), else staff permissions it carries (a warning: every member who gets it can use
 * them, whoever set it up). Null when neither.
 */
export function handoutProblem(services: Services, guildId: string, roleId: string): (Problem & { severity: 'error' | 'warning' }) | null {
  const problem = roleProblem(services, guildId, roleId);
  if (problem) return { ...problem, severity: 'error' };
  const role = services.gateway.role(guildId, roleId);
  const warning = role ? dangerousRoleWarning(role) : null;
  if (!warning || !role) return null;
  return {
    problem: warning,
    fix: `Hand out a role without those permissions, or take them off @${role.name} in Server Settings → Roles.`,
    severity: 'warning',
  };
}

/** Settings that only make sense together: a switch on needs its channel or role. */
export function checkRules(next: GuildSettings): void {
  const fields: Record<string, string> = {};
  const welcomeChannel = welcomeChannelProblem(next);
  if (welcomeChannel) fields.welcomeChannelId = welcomeChannel;
  if (next.verificationEnabled && !next.rulesChannelId) fields.rulesChannelId = VERIFICATION_MISSING.rulesChannelId;
  if (next.verificationEnabled && !next.verificationRoleId) fields.verificationRoleId = VERIFICATION_MISSING.verificationRoleId;
  if (next.verificationEnabled && !next.rulesMessage) fields.rulesMessage = VERIFICATION_MISSING.rulesMessage;
  if (next.autoRoleEnabled && !next.memberRoleId) fields.memberRoleId = 'Please pick the role to give new members.';
  if (Object.keys(fields).length === 0) return;
  const [only] = Object.values(fields);
  throw new InvalidInput(fields, Object.keys(fields).length === 1 && only ? only : undefined);
}

/** The problem of one configured id setting, or null (unset, or fine). */
export function settingProblem(services: Services, guildId: string, settings: GuildSettings, field: SettingKey): Problem | null {
  const id = settings[field];
  if (typeof id !== 'string') return null;
  const needs = CHANNEL_NEEDS[field];
  if (needs) return channelProblem(services, guildId, id, needs);
  if (ROLE_FIELDS.includes(field)) return roleProblem(services, guildId, id);
  return null;
}

/**
 * Checks every id that changed against the live guild: a channel must be a text channel of this
 * guild where the bot can do what the feature needs; a role must be a role of this guild, not
 * managed, not @everyone, below the bot's highest role, with the bot holding Manage Roles.
 * Throws InvalidInput naming each bad field with the reason and how to fix it.
 */
export function checkGuildIds(services: Services, guildId: string, next: GuildSettings, changed: readonly SettingKey[]): void {
  const fields: Record<string, string> = {};
  for (const field of changed) {
    const problem = settingProblem(services, guildId, next, field);
    if (problem) fields[field] = problemText(problem);
  }
  if (Object.keys(fields).length > 0) throw new InvalidInput(fields);
}

/** A webhook URL must reach a public address (unless ALLOW_PRIVATE_WEBHOOKS is set). */
export async function checkWebhookUrl(services: Services, url: string): Promise<void> {
  try {
    await checkWebhookTarget(new URL(url), services.config.allowPrivateWebhooks);
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw InvalidInput.field('webhookUrl', error.message);
    throw error;
  }
}
