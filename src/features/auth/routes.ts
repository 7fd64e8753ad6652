import * as z from 'zod';
import { NotFound } from '../../core/errors';
import { accountRoute, endSession, establishSession, HttpError, publicRoute, Unauthorized, type RouteSpec } from '../../http/route';
import { DiscordCallbackInput, MockLoginInput } from '../../shared/auth';
import { DiscordAuthRejected } from '../../core/discord-oauth';
import {
  beginSignIn,
  completeSignIn,
  listCommunities,
  listManagedServers,
  presentAccount,
  saveSignedInAccount,
  signOut,
  signOutEverywhere,
  SignInRefused,
} from './service';
import type { Context } from 'koa';
import { authState } from './state';

const LoginQuery = z.object({ redirect: z.string().max(2048, 'is too long').optional() });

/** The browser's session, for the pending OAuth sign-in. */
function sessionOf(ctx: Context) {
  if (!ctx.session) throw new Error('sessions are not configured');
  return ctx.session;
}

/** Sign-in (Discord's OAuth and the sandbox's demo login), sign-out, the current account and its servers. */
export const authRoutes: RouteSpec[] = [
  publicRoute({
    method: 'get',
    path: '/auth/discord/login',
    limit: 'auth',
    query: LoginQuery,
    handler: ({ query, services, ctx }) => {
      ctx.redirect(beginSignIn(authState.of(services), sessionOf(ctx), query.redirect));
      return undefined;
    },
  }),

  publicRoute({
    method: 'post',
    path: '/auth/discord/callback',
    limit: 'auth',
    body: DiscordCallbackInput,
    handler: async ({ body, services, ctx }) => {
      try {
        const { account, redirectTo } = await completeSignIn(authState.of(services), sessionOf(ctx), body);
        await establishSession(ctx, account);
        return { user: presentAccount(account), redirectTo };
      } catch (error) {
        if (error instanceof SignInRefused) throw new HttpError(400, error.reason, error.message);
        throw error;
      }
    },
  }),

  publicRoute({
    method: 'post',
    path: '/auth/mock-login',
    limit: 'auth',
    body: MockLoginInput,
    handler: async ({ body, services, ctx }) => {
      // Demo login exists only in sandbox mode; with a Discord token the route answers as if absent.
      if (!services.demo) throw new NotFound(`No API route ${ctx.method} ${ctx.path}.`);
      const { profile, tokens } = await services.demo.signIn(body);
      const account = await saveSignedInAccount(authState.of(services), profile, tokens);
      await establishSession(ctx, account);
      return { user: presentAccount(account), redirectTo: '/dashboard' };
    },
  }),

  accountRoute({
    method: 'get',
    path: '/auth/me',
    handler: ({ account }) => presentAccount(account),
  }),

  publicRoute({
    method: 'post',
    path: '/auth/logout',
    handler: async ({ services, ctx }) => {
      const accountId = ctx.session?.accountId;
      const account = accountId ? await services.store.models.Account.findByPk(accountId) : null;
      if (account) await signOut(authState.of(services), account);
      endSession(ctx);
      return undefined;
    },
  }),

  accountRoute({
    method: 'post',
    path: '/auth/logout-everywhere',
    handler: async ({ account, services, ctx }) => {
      await signOutEverywhere(authState.of(services), account);
      endSession(ctx);
      return undefined;
    },
  }),

  accountRoute({
    method: 'get',
    path: '/auth/servers',
    handler: ({ account, services, ctx }) => withDiscordSignIn(ctx, () => listManagedServers(authState.of(services), services, account)),
  }),

  accountRoute({
    method: 'get',
    path: '/auth/communities',
    handler: ({ account, services, ctx }) => withDiscordSignIn(ctx, () => listCommunities(authState.of(services), services, account)),
  }),
];

/** Runs a read that needs the user's Discord grant; an expired grant ends the session with a 401. */
async function withDiscordSignIn<T>(ctx: Parameters<typeof endSession>[0], read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof DiscordAuthRejected) {
      endSession(ctx);
      throw new Unauthorized('Your Discord sign-in has expired. Please sign in again.');
    }
    throw error;
  }
}
