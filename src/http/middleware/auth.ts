import type { Context, Middleware, Next } from 'koa';
import type { BotGateway, GuildSummary } from '../../bot/gateway';
import type { Store } from '../../db/store';
import type { User } from '../../db/models/User';
import { ServerParams } from '../../shared/servers';
import { Forbidden, NotFound, Unauthorized } from '../errors';
import { parseInput } from './validate';

/** What the auth middleware leave on ctx.state. */
export interface AuthState {
  user: User;
  /** Set by the guild guards: the guild from the gateway cache. */
  guild: GuildSummary;
}

/** The signed-in user, or null. Reads the session's user id and loads the row. */
export async function currentUser(ctx: Context, store: Store): Promise<User | null> {
  const userId = ctx.session?.userId;
  if (!userId) return null;
  const user = await store.models.User.findByPk(userId);
  if (!user && ctx.session) ctx.session.userId = undefined;
  return user;
}

/** 401 unless signed in; puts the user on ctx.state.user. */
export function requireUser(store: Store): Middleware {
  return async (ctx: Context, next: Next) => {
    const user = await currentUser(ctx, store);
    if (!user) throw new Unauthorized();
    ctx.state.user = user;
    await next();
  };
}

type GuildRole = 'manager' | 'member';

/**
 * The guild guard behind every /api/servers/:serverId route, from the bot's live gateway data:
 * 400 for a malformed id, 404 when the bot is not in the guild, 403 unless the user may act.
 * `manager`: owner, Administrator or Manage Server. `member`: anyone in the guild (own-data routes).
 * Must follow requireUser.
 */
export function requireGuild(gateway: BotGateway, role: GuildRole): Middleware {
  return async (ctx: Context, next: Next) => {
    const { serverId } = parseInput(ServerParams, (ctx as Context & { params?: unknown }).params ?? {});
    const user = (ctx.state as Partial<AuthState>).user;
    if (!user) throw new Unauthorized();
    const access = await gateway.access(serverId, user.discordId);
    if (access.kind === 'no-bot') throw new NotFound('The bot is not in that server.');
    if (access.kind === 'not-member') throw new Forbidden('You are not a member of that server.');
    if (role === 'manager' && !access.canManage) {
      throw new Forbidden('You need the Manage Server permission in that server.');
    }
    const guild = gateway.guild(serverId);
    if (!guild) throw new NotFound('The bot is not in that server.');
    ctx.state.guild = guild;
    await next();
  };
}

/** Guard for admin routes of a guild (owner, Administrator, Manage Server). */
export const requireGuildManager = (gateway: BotGateway) => requireGuild(gateway, 'manager');
/** Guard for a member's own-data routes (their inventory, their rank). */
export const requireGuildMember = (gateway: BotGateway) => requireGuild(gateway, 'member');
