import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import createSession from 'koa-session';
import { Op } from 'sequelize';
import type { Store } from '../db/store';
import { setBounded } from '../core/bounded-map';

/** What a dashboard session holds. Never tokens: those stay in the users table, encrypted. */
export interface SessionData {
  /** The signed-in account (our accounts row, not a Discord id). */
  accountId?: number;
  /** The pending OAuth sign-in: its state (single use), where to land after, and when it began. */
  oauth?: { state: string; redirect: string; createdAt: number };
}

/** koa-session's per-request session, as our handlers use it. */
export type RequestSession = SessionData & { regenerate(): Promise<void> | undefined };

declare module 'koa' {
  interface DefaultContext {
    session: RequestSession | null;
  }
}

/**
 * Sessions expire after 30 days without use. The cookie and the stored row are renewed by a
 * request in the second half of that time (koa-session's `renew`), not by every request: an
 * unchanged session costs no Set-Cookie, hash or store call per request, and one idle for 15 to
 * 30 days still ends.
 */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
const SWEEP_INTERVAL_MS = 3600 * 1000;

/** The cookie's name: the `__Host-` prefix (secure, host-only, path /) when served over https. */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https://') ? '__Host-sid' : 'sid';
}

/** Rows are keyed by the SHA-256 of the cookie value, so reading the store does not yield live cookies. */
function rowId(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Cookies whose row id was worked out lately: a signed-in browser's every request asks again. */
const ROW_IDS_KEPT = 10_000;

/** rowId, remembered for the last ROW_IDS_KEPT cookies (a hash per request was 2% of a signed-in read). */
function rememberingRowIds(): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let id = known.get(key);
    if (id === undefined) {
      id = rowId(key);
      setBounded(known, key, id, ROW_IDS_KEPT);
    }
    return id;
  };
}

/** The session middleware over the store, plus a sweeper for expired rows. */
export function createSessionMiddleware(app: Koa, store: Store, publicUrl: string): { middleware: Middleware; dispose(): void } {
  const { Session } = store.models;
  /** Sessions whose renewal is being written (the requests that arrive meanwhile do not write it again). */
  const renewing = new Set<string>();
  const idOf = rememberingRowIds();
  const secure = publicUrl.startsWith('https://');

  const sweeper = setInterval(() => {
    void Session.destroy({ where: { expiresAt: { [Op.lt]: new Date() } } }).catch(() => undefined);
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  const middleware = createSession(
    {
      key: sessionCookieName(publicUrl),
      maxAge: SESSION_IDLE_MS,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      signed: false, // the id is 256 random bits looked up server side; a signature adds nothing
      renew: true,
      genid: () => randomBytes(32).toString('base64url'),
      store: {
        async get(key: string) {
          const row = await store.cached.sessions.get(idOf(key));
          if (!row) return undefined;
          // An expired row is left to the sweeper: deleting it here would make a read wait for the
          // store's write lock (and fail with it) when the database is busy.
          if (row.expiresAt.getTime() < Date.now()) return undefined;
          // A copy: koa-session's object is the request's own, the cached row's is shared. Shallow is
          // enough: handlers replace what a session holds (session.oauth = …), never change it inside.
          // With when it ends: koa-session renews a session in the second half of its life only when
          // it knows that (without it, every session ended 30 days after sign-in, however used).
          return { ...row.data, _expire: row.expiresAt.getTime(), _maxAge: SESSION_IDLE_MS };
        },
        async set(key: string, data: SessionData, maxAge: number, { changed }: { changed: boolean }) {
          const id = idOf(key);
          const now = Date.now();
          const { _expire, _maxAge, ...rest } = data as SessionData & { _expire?: number; _maxAge?: number };
          void _expire;
          void _maxAge;
          if (changed) {
            await Session.upsert({ id, data: rest as Record<string, unknown>, accountId: data.accountId ?? null, expiresAt: new Date(now + maxAge) });
            store.cached.sessions.forget(id);
            return;
          }
          // A renewal (unchanged, past the middle of its life), in the background: a busy store
          // neither holds up nor fails the read that renewed it, and the next request tries again.
          // Requests arriving while it is written do not write it again; once written, the session
          // is read with its new expiry and is not renewed again for 15 days.
          // Only the expiry is written: a renewal carries nothing new, and must not put back data that
          // a change written meanwhile replaced (a sign-in's).
          if (renewing.has(id)) return;
          renewing.add(id);
          void Session.update({ expiresAt: new Date(now + maxAge) }, { where: { id } })
            .then(() => store.cached.sessions.forget(id))
            .catch(() => undefined)
            .finally(() => renewing.delete(id));
        },
        async destroy(key: string) {
          const id = idOf(key);
          await Session.destroy({ where: { id } });
          store.cached.sessions.forget(id);
        },
      },
    },
    app,
  );
  // koa-session reads or creates a session before every request it sees, and creating one costs
  // 32 random bytes. A request without our cookie has no session to read, and only sign-in
  // (under /api/auth/) starts one: every other request skips the middleware and reads
  // ctx.session as undefined (signed out).
  const cookie = sessionCookieName(publicUrl);
  const onlyWhereNeeded: Middleware = (ctx, next) =>
    ctx.cookies.get(cookie) !== undefined || ctx.path.startsWith('/api/auth/') ? middleware(ctx, next) : next();
  return { middleware: onlyWhereNeeded, dispose: () => clearInterval(sweeper) };
}

/** Starts a fresh session for an account that just signed in (a new id defeats session fixation). */
export async function establishSession(ctx: Context, account: { id: number }): Promise<void> {
  if (!ctx.session) throw new Error('sessions are not configured');
  await ctx.session.regenerate();
  ctx.session.accountId = account.id;
}

/** Ends this browser's session (the cookie is cleared and the row deleted). */
export function endSession(ctx: Context): void {
  ctx.session = null;
}

/**
 * A check of whether the session this request came with is still open (not signed out here or
 * everywhere, not expired), read from the store each time: for answers that outlive their request
 * (a live stream), which must end with the session.
 */
export function sessionCheck(ctx: Context, store: Store, publicUrl: string): () => Promise<boolean> {
  const key = ctx.cookies.get(sessionCookieName(publicUrl));
  const accountId = ctx.session?.accountId;
  if (!key || accountId === undefined) return async () => false;
  const id = rowId(key);
  return async () => {
    const row = await store.models.Session.findByPk(id);
    return row !== null && row.accountId === accountId && row.expiresAt.getTime() > Date.now();
  };
}
