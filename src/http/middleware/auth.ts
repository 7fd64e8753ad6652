import type { Context, Middleware, Next } from 'koa';
import type { Services } from '../../core/services';
import type { Account } from '../../db/models/account';
import type { Store } from '../../db/store';
import { GuildParams } from '../../shared/servers';
import { NotFound } from '../../core/errors';
import { Unauthorized } from '../errors';
import type { RouteAccess } from '../route';
import { parseInput } from './validate';

/** The signed-in account, or null. Reads the session's account id and its row (cached for a moment, see RowCache). */
export async function currentAccount(ctx: Context, store: Store): Promise<Account | null> {
  const accountId = ctx.session?.accountId;
  if (!accountId) return null;
  const account = await store.cached.accounts.get(accountId);
  if (!account && ctx.session) ctx.session.accountId = undefined;
  return account;
}

/** 401 unless signed in; puts the account on ctx.state.account. */
export function requireAccount(store: Store): Middleware {
  return async (ctx: Context, next: Next) => {
    const account = await currentAccount(ctx, store);
    if (!account) throw new Unauthorized();
    ctx.state.account = account;
    await next();
  };
}

/**
 * The guild guard behind every /api/servers/:guildId route: 400 for a malformed id, then the
 * access rule of src/core (live gateway data and grants): 404 when the bot is not in the guild,
 * 403 unless the account has `needed`. Puts the guild and the access on ctx.state. Follows requireAccount.
 */
export function requireGuildAccess(services: Services, needed: RouteAccess): Middleware {
  return async (ctx: Context, next: Next) => {
    const { guildId } = parseInput(GuildParams, (ctx as Context & { params?: unknown }).params ?? {});
    const account = ctx.state.account as Account | undefined;
    if (!account) throw new Unauthorized();
    const access = await services.access.require(guildId, account.userId, needed);
    const guild = services.gateway.guild(guildId);
    if (!guild) throw new NotFound('The bot is not in that server.');
    ctx.state.guild = guild;
    ctx.state.access = access;
    await next();
  };
}
