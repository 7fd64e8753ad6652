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
/** An unchanged session's expiry is pushed back in the store at most this often. */
const TOUCH_INTERVAL_MS = 10 * 60 * 1000;
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
  const touched = new Map<string, number>();
  const idOf = rememberingRowIds();
  const secure = publicUrl.startsWith('https://');

  const sweeper = setInterval(() => {
    void Session.destroy({ where: { expiresAt: { [Op.lt]: new Date() } } }).catch(() => undefined);
    const cutoff = Date.now() - TOUCH_INTERVAL_MS;
    for (const [id, at] of touched) if (at < cutoff) touched.delete(id);
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
          return { ...row.data };
        },
        async set(key: string, data: SessionData, maxAge: number, { changed }: { changed: boolean }) {
          const id = idOf(key);
          const now = Date.now();
          if (!changed && now - (touched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
          touched.set(id, now);
          const { _expire, _maxAge, ...rest } = data as SessionData & { _expire?: number; _maxAge?: number };
          void _expire;
          void _maxAge;
          await Session.upsert({ id, data: rest as Record<string, unknown>, accountId: data.accountId ?? null, expiresAt: new Date(now + maxAge) });
        },
        async destroy(key: string) {
          const id = idOf(key);
          touched.delete(id);
          await Session.destroy({ where: { id } });
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
  const onlyWhereNeeded: Middleware = (ctx, next) => (ctx.cookies.get(cookie) !== undefined || ctx.path.startsWith('/api/auth/') ? middleware(ctx, next) : next());
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
