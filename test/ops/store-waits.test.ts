// Issue 20, point 5: while a write waits for a lock held by another program, reads keep their
// normal latency, and the write is refused after the documented wait (LOCK_WAIT_MS, 5 s) counted
// from when it was asked, with the documented 503 answer, having changed nothing.
//
// Each read is timed only while a write is known to be waiting: on SQLite, a statement of a write
// has been sent to the database and not answered (seen through Sequelize's query hooks); on
// PostgreSQL, the server lists a lock request that is not granted. That is checked before and
// after the reads, so a fast read cannot come from a write that already gave up.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { STORE_TROUBLE_MESSAGES } from '../../src/core/errors';
import { LOCK_WAIT_MS } from '../../src/db/locks';
import { useHarness, type Harness } from '../helpers/harness';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';
import { lockFile, watchWrites } from './store-locks';

/** A read answers well within this while a write waits (it takes milliseconds when nothing does). */
const READ_BOUND_MS = 1000;
/** When a write waiting for a held lock is refused, counted from when it was asked. */
const REFUSED_AFTER_MS = { min: LOCK_WAIT_MS - 500, max: LOCK_WAIT_MS + 2000 };

/** A request under way: its answer, whether it came, and how long it took from when it was asked. */
interface Asked {
  answer: Promise<{ status: number; body: { error?: string; message?: string }; headers: Record<string, string> }>;
  settled(): boolean;
  elapsedMs(): number;
}

/** Sends a request now and keeps track of it. */
function ask(send: () => PromiseLike<{ status: number; body: unknown; headers: Record<string, string> }>): Asked {
  const started = performance.now();
  let finished: number | null = null;
  const answer = Promise.resolve(send()).then((response) => {
    finished = performance.now();
    return response as Awaited<Asked['answer']>;
  });
  return { answer, settled: () => finished !== null, elapsedMs: () => (finished ?? performance.now()) - started };
}

/** The dashboard's reads an admin's page makes, each timed. */
async function timedReads(h: Harness, admin: Awaited<ReturnType<Harness['signIn']>>): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const timed = async (name: string, read: () => PromiseLike<{ status: number }>) => {
    const started = performance.now();
    const response = await read();
    timings[name] = Math.round(performance.now() - started);
    assert.equal(response.status, 200, `${name} answered ${response.status}`);
  };
  await timed('health', async () => fetch(`${h.product.url}/api/health`));
  await timed('settings', () => admin.get(`/api/servers/${h.guildId}/settings`));
  // The history is read from the store (the answer cache keeps it for a second, and each test runs longer).
  await timed('audit log', () => admin.get(`/api/servers/${h.guildId}/audit-log?page=1`));
  await timed('signed-in account', () => admin.get('/api/auth/me'));
  return timings;
}

/** Reads timed while a write is known to be waiting (checked before and after). */
async function readsWhileWaiting(h: Harness, admin: Awaited<ReturnType<Harness['signIn']>>, write: Asked, isWaiting: () => Promise<boolean>): Promise<void> {
  await waitFor(async () => !write.settled() && (await isWaiting()), LOCK_WAIT_MS, 'the write to be waiting for the lock').catch(async (error: unknown) => {
    // Which of the two never came true, for the next reader of a failure.
    const answer = write.settled() ? JSON.stringify((await write.answer).body) : 'not answered';
    throw new Error(`${String(error)} (after ${Math.round(write.elapsedMs())} ms: the write is ${answer}; statements waiting: ${String(await isWaiting())})`);
  });
  const timings = await timedReads(h, admin);
  for (const [name, ms] of Object.entries(timings)) assert.ok(ms < READ_BOUND_MS, `${name} took ${ms} ms while a write waited (${JSON.stringify(timings)})`);
  assert.ok(!write.settled() && (await isWaiting()), `the write was still waiting after the reads (${JSON.stringify(timings)}), else they prove nothing`);
}

/** The documented refusal: 503 store_unavailable, busy, Retry-After 5, after about LOCK_WAIT_MS from the ask. */
async function expectRefusedInTime(write: Asked): Promise<void> {
  const response = await write.answer;
  assert.equal(response.status, 503, JSON.stringify(response.body));
  assert.equal(response.body.error, 'store_unavailable');
  assert.equal(response.body.message, STORE_TROUBLE_MESSAGES.busy);
  assert.equal(response.headers['retry-after'], '5');
  const elapsed = Math.round(write.elapsedMs());
  assert.ok(
    elapsed >= REFUSED_AFTER_MS.min && elapsed <= REFUSED_AFTER_MS.max,
    `refused after ${elapsed} ms, not about ${LOCK_WAIT_MS} ms from when it was asked`,
  );
}

describe('the SQLite file locked by another program while dashboard writes wait', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'store-waits-')), 'bot.sqlite');
  const h = useHarness({ DATABASE_URL: `sqlite:${file}` });
  let admin: Awaited<ReturnType<Harness['signIn']>>;
  let writes: ReturnType<typeof watchWrites>;
  before(async () => {
    admin = await h().signIn(h().demo.adminUserId);
    writes = watchWrites(h().product.store);
  });
  after(() => writes.stop());
  const settingsPath = () => `/api/servers/${h().guildId}/settings`;
  const accessPath = () => `/api/servers/${h().guildId}/access`;

  test('a one-statement write (an access grant) waits: reads answer at once, the grant is refused after 5 s and not made', async () => {
    const role = h()
      .product.services.gateway.roles(h().guildId)
      .find((candidate) => !candidate.isEveryone && !candidate.managed);
    assert.ok(role, 'the demo guild has a role to grant');
    const lock = await lockFile(file);
    try {
      const grant = ask(() => admin.post(accessPath(), { subjectType: 'role', subjectId: role.id, level: 'view' }));
      await readsWhileWaiting(h(), admin, grant, async () => writes.waiting() > 0);
      await expectRefusedInTime(grant);
    } finally {
      await lock.release();
    }
    assert.deepEqual((await admin.get(accessPath()).expect(200)).body, [], 'no grant was made');
  });

  test('a settings save asked while a coin give already waits is refused 5 s after it was asked, not after both waits', async () => {
    const before = (await admin.get(settingsPath()).expect(200)).body as { xpCooldown: number };
    const { UserCurrency } = h().product.store.models;
    const balances = async () =>
      (await UserCurrency.findAll({ where: { guildId: h().guildId }, order: [['userId', 'ASC']] })).map((row) => [row.userId, row.balance]);
    const balancesBefore = await balances();
    const lock = await lockFile(file);
    try {
      const give = h().slash(h().demo.plainMemberId, 'give', { member: h().demo.adminUserId, amount: 1 });
      await waitFor(() => writes.waiting() > 0, LOCK_WAIT_MS, 'the give to be waiting for the lock');
      const save = ask(() => admin.put(settingsPath(), { xpCooldown: before.xpCooldown + 7 }));
      await readsWhileWaiting(h(), admin, save, async () => writes.waiting() > 0);
      await expectRefusedInTime(save);
      assert.equal((await give).body.content, STORE_TROUBLE_MESSAGES.busy, 'the member is told why, in the reply the bot deferred while it waited');
    } finally {
      await lock.release();
    }
    assert.equal(
      ((await admin.get(settingsPath()).expect(200)).body as { xpCooldown: number }).xpCooldown,
      before.xpCooldown,
      'the refused save changed nothing',
    );
    assert.deepEqual(await balances(), balancesBefore, 'the refused give moved no coins');
  });

  test('a request with an expired session is answered at once while the file is locked (the expired row is not deleted on its way)', async () => {
    const member = await h().signIn(h().demo.plainMemberId);
    const { Account, Session } = h().product.store.models;
    const account = await Account.findOne({ where: { userId: h().demo.plainMemberId } });
    assert.ok(account);
    await Session.update({ expiresAt: new Date(Date.now() - 60_000) }, { where: { accountId: account.id } });
    const lock = await lockFile(file);
    try {
      const started = performance.now();
      const response = await member.get('/api/auth/me');
      const elapsed = Math.round(performance.now() - started);
      assert.equal(response.status, 401, JSON.stringify(response.body));
      assert.ok(elapsed < READ_BOUND_MS, `took ${elapsed} ms`);
    } finally {
      await lock.release();
    }
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe('PostgreSQL tables locked by another client while dashboard writes wait', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  // The database must exist before the harness (whose before hook runs next) starts the product on it.
  before(async () => {
    database = await storeBackends()
      .find((candidate) => candidate.name === 'postgres')
      ?.createDatabase();
  });
  after(async () => {
    await h().product.close();
    await database?.drop();
  });
  const env: NodeJS.ProcessEnv = {};
  Object.defineProperty(env, 'DATABASE_URL', { enumerable: true, get: () => database?.url });
  const h = useHarness(env);
  let admin: Awaited<ReturnType<Harness['signIn']>>;
  before(async () => {
    admin = await h().signIn(h().demo.adminUserId);
  });

  /** Another client holding `tables` in EXCLUSIVE mode (others may read them, not write), and how many lock requests wait. */
  async function lockTables(tables: string): Promise<{ waiting(): Promise<number>; release(): Promise<void> }> {
    const locker = new pg.Client({ connectionString: database?.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${tables} IN EXCLUSIVE MODE`);
    return {
      async waiting() {
        const { rows } = await locker.query<{ waiting: string }>('SELECT count(*) AS waiting FROM pg_locks WHERE NOT granted');
        return Number(rows[0]?.waiting);
      },
      async release() {
        await locker.query('ROLLBACK').catch(() => undefined);
        await locker.end();
      },
    };
  }

  test('a settings save waits: reads answer at once, the save is refused after 5 s and changes nothing', async () => {
    const url = `/api/servers/${h().guildId}/settings`;
    const before = (await admin.get(url).expect(200)).body as { xpCooldown: number };
    const lock = await lockTables('guild_settings, settings_history');
    try {
      const save = ask(() => admin.put(url, { xpCooldown: before.xpCooldown + 7 }));
      await readsWhileWaiting(h(), admin, save, async () => (await lock.waiting()) > 0);
      await expectRefusedInTime(save);
    } finally {
      await lock.release();
    }
    assert.equal(((await admin.get(url).expect(200)).body as { xpCooldown: number }).xpCooldown, before.xpCooldown, 'the refused save changed nothing');
  });

  test('more writes waiting than there are pooled connections: reads answer at once, each write is refused 5 s after it was asked', async () => {
    const { UserCurrency } = h().product.store.models;
    const balances = async () =>
      (await UserCurrency.findAll({ where: { guildId: h().guildId }, order: [['userId', 'ASC']] })).map((row) => [row.userId, row.balance]);
    const balancesBefore = await balances();
    const lock = await lockTables('user_currency, transactions, settings_history');
    try {
      const gives = Array.from({ length: 12 }, () =>
        ask(() => admin.post(`/api/servers/${h().guildId}/economy/give`, { userId: h().demo.plainMemberId, amount: 1 })),
      );
      // Five waiting fill a pool of five; the reads are timed once they do.
      await waitFor(async () => (await lock.waiting()) >= 5, LOCK_WAIT_MS, 'the gives to wait for the lock');
      const [first] = gives;
      assert.ok(first);
      await readsWhileWaiting(h(), admin, first, async () => (await lock.waiting()) > 0);
      for (const give of gives) await expectRefusedInTime(give);
    } finally {
      await lock.release();
    }
    assert.deepEqual(await balances(), balancesBefore, 'the refused gives moved no coins');
  });
});
