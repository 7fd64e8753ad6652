import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../../http/app';
import { HttpError, NotFound, Unauthorized } from '../../http/errors';
import { currentUser, requireUser, type AuthState } from '../../http/middleware/auth';
import { inputOf, validate } from '../../http/middleware/validate';
import type { Middleware } from 'koa';
import { DiscordCallbackInput, MockLoginInput } from '../../shared/auth';
import { DiscordAuthRejected } from './discord';
import { beginSignIn, completeSignIn, listManagedServers, presentUser, saveSignedInUser, signOut, SignInRefused } from './service';
import type { User } from '../../db/models/User';

const LoginQuery = z.object({ redirect: z.string().max(2048, 'is too long').optional() });

/** Starts a fresh session for a user who just signed in (a new id defeats session fixation). */
async function establishSession(ctx: Context, user: User): Promise<void> {
  if (!ctx.session) throw new Error('sessions are not configured');
  await ctx.session.regenerate();
  ctx.session.userId = user.id;
}

/** Sign-in, sign-out, the current user and their servers. `authLimit` guards the sign-in routes. */
export function authRoutes(deps: AppDeps, authLimit: Middleware): Router {
  const router = new Router({ prefix: '/auth' });
  const { auth } = deps;

  router.get('/discord/login', authLimit, validate({ query: LoginQuery }), (ctx) => {
    if (!ctx.session) throw new Error('sessions are not configured');
    const { query } = inputOf(ctx, { query: LoginQuery });
    ctx.redirect(beginSignIn(auth, ctx.session, query.redirect));
  });

  router.post('/discord/callback', authLimit, validate({ body: DiscordCallbackInput }), async (ctx) => {
    if (!ctx.session) throw new Error('sessions are not configured');
    const { body } = inputOf(ctx, { body: DiscordCallbackInput });
    try {
      const { user, redirectTo } = await completeSignIn(auth, ctx.session, body);
      await establishSession(ctx, user);
      ctx.body = { user: presentUser(user), redirectTo };
    } catch (error) {
      if (error instanceof SignInRefused) throw new HttpError(400, error.reason, error.message);
      throw error;
    }
  });

  router.post('/mock-login', authLimit, async (ctx, next) => {
    // Demo login exists only in sandbox mode; with a Discord token the route does not exist.
    if (!deps.demo) throw new NotFound(`No API route ${ctx.method} ${ctx.path}.`);
    await next();
  }, validate({ body: MockLoginInput }), async (ctx) => {
    const { body } = inputOf(ctx, { body: MockLoginInput });
    if (!deps.demo) return;
    const { profile, tokens } = await deps.demo.signIn(body);
    const user = await saveSignedInUser(auth, profile, tokens);
    await establishSession(ctx, user);
    ctx.body = { user: presentUser(user), redirectTo: '/dashboard' };
  });

  router.get('/me', requireUser(deps.store), (ctx) => {
    ctx.body = presentUser((ctx.state as AuthState).user);
  });

  router.post('/logout', async (ctx) => {
    const user = await currentUser(ctx, deps.store);
    if (user) await signOut(auth, user);
    ctx.session = null;
    ctx.status = 204;
  });

  router.get('/servers', requireUser(deps.store), async (ctx) => {
    try {
      ctx.body = await listManagedServers(auth, deps.gateway, (ctx.state as AuthState).user);
    } catch (error) {
      if (error instanceof DiscordAuthRejected) {
        ctx.session = null;
        throw new Unauthorized('Your Discord sign-in has expired. Please sign in again.');
      }
      throw error;
    }
  });

  return router;
}
