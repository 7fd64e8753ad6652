import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { BotGateway } from '../bot/gateway';
import { atLeast, type AccessLevel, type GrantLevel } from '../shared/access';
import type { Clock } from './clock';
import { Forbidden, NotFound } from './errors';

/** A user's access to one guild, decided from live gateway data and the guild's grants. */
export interface GuildAccess {
  guildId: string;
  userId: string;
  level: AccessLevel;
  isOwner: boolean;
  /** The member's guild-wide Discord permissions, a decimal bitmask ("0" for non-members). */
  permissions: string;
}

/** Dashboard access granted to a role or a member by the owner or an Administrator. */
export interface Grant {
  id: number;
  guildId: string;
  subjectType: 'role' | 'member';
  subjectId: string;
  level: GrantLevel;
  expiresAt: Date | null;
}

/** Where the access rule reads a guild's grants (cached by their owner, invalidated on change). */
export interface GrantSource {
  grantsOf(guildId: string): Promise<Grant[]>;
}

/** The guild-access rule, with no face: HTTP routes, the server list and slash commands all call it. */
export interface AccessRule {
  /** The user's access; NotFound when the bot is not in the guild. */
  of(guildId: string, userId: string): Promise<GuildAccess>;
  /** The user's access if it is at least `needed`; NotFound or Forbidden (with the reason) otherwise. */
  require(guildId: string, userId: string, needed: AccessLevel): Promise<GuildAccess>;
}

const ADMINISTRATOR = PermissionFlagsBits.Administrator;
const MANAGE_GUILD = PermissionFlagsBits.ManageGuild;

/** Why a user falls short of `needed`, in words. */
function refusal(level: AccessLevel, needed: AccessLevel): string {
  if (level === 'none') return 'You are not a member of that server.';
  if (needed === 'admin') return 'Only the server owner or an Administrator can do that.';
  if (level === 'view') return 'Your dashboard access to this server is read-only.';
  return 'You need the Manage Server permission in that server, or dashboard access granted by its owner or an Administrator.';
}

/**
 * The rule: the owner and Administrators are `admin`, Manage Server is `manage`; other members get
 * the highest unexpired grant to them or to one of their roles (`view` or `edit`), else `member`.
 * Everything is read live: roles from the gateway cache (kept current by GUILD_MEMBER_UPDATE),
 * grants from their source.
 */
export function createAccessRule({ gateway, grants, clock }: { gateway: BotGateway; grants: GrantSource; clock: Clock }): AccessRule {
  async function of(guildId: string, userId: string): Promise<GuildAccess> {
    const member = await gateway.member(guildId, userId);
    if (member.kind === 'no-bot') throw new NotFound('The bot is not in that server.');
    if (member.kind === 'not-member') return { guildId, userId, level: 'none', isOwner: false, permissions: '0' };
    const base = { guildId, userId, isOwner: member.isOwner, permissions: member.permissions.toString() };
    if (member.isOwner || (member.permissions & ADMINISTRATOR) === ADMINISTRATOR) return { ...base, level: 'admin' };
    if ((member.permissions & MANAGE_GUILD) === MANAGE_GUILD) return { ...base, level: 'manage' };
    const now = clock.ms();
    let level: AccessLevel = 'member';
    for (const grant of await grants.grantsOf(guildId)) {
      if (grant.expiresAt && grant.expiresAt.getTime() <= now) continue;
      const applies = grant.subjectType === 'member' ? grant.subjectId === userId : member.roleIds.includes(grant.subjectId);
      if (applies && atLeast(grant.level, level)) level = grant.level;
    }
    return { ...base, level };
  }

  return {
    of,
    async require(guildId, userId, needed) {
      const access = await of(guildId, userId);
      if (!atLeast(access.level, needed)) throw new Forbidden(refusal(access.level, needed));
      return access;
    },
  };
}

/**
 * A member's own data (their rank, their inventory), or anyone's for those with `level` access;
 * others are refused with `refusal`, a whole sentence from SELF_ONLY ("You can only see your own rank.").
 */
export function requireSelfOr(access: GuildAccess, userId: string, level: AccessLevel, refusal: string): void {
  if (access.userId !== userId && !atLeast(access.level, level)) throw new Forbidden(refusal);
}
