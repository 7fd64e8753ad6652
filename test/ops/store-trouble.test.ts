// The store in trouble while the product runs (issue 13, "the store locked or full"): another
// program holding SQLite's write lock, the disk filling up, a PostgreSQL table locked elsewhere.
// Each write is answered in words (HTTP 503 naming the database, the member's ephemeral reply),
// changes nothing, and works again once the trouble passes; reads keep working; XP earned
// meanwhile is written afterwards; the process never stops.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { STORE_TROUBLE_MESSAGES } from '../../src/core/errors';
import type { Store } from '../../src/db/store';
import { useHarness } from '../helpers/harness';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';

/** Runs one statement on a raw sqlite3 connection. */
function run(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, (error: Error | null) => (error ? reject(error) : resolve())));
}

/**
 * Caps the SQLite file at the pages it has now on every connection the product's store opens, as
 * a full disk would: a write that needs one more page fails with SQLITE_FULL. Returns the undo.
 */
function capSize(store: Store): () => void {
  const manager = store.sequelize.connectionManager as unknown as { getConnection(options?: unknown): Promise<sqlite3.Database> };
  const original = manager.getConnection.bind(manager);
  let capped = true;
  manager.getConnection = async (options) => {
    const connection = await original(options);
    await run(connection, capped ? 'PRAGMA max_page_count = 1' : 'PRAGMA max_page_count = 1073741823');
    return connection;
  };
  return () => {
    capped = false;
  };
}

/** What one failed write answers, and the settings it left. */
async function expectStoreFailure(
  response: { status: number; body: { error?: string; message?: string }; headers: Record<string, string> },
  trouble: keyof typeof STORE_TROUBLE_MESSAGES,
) {
  assert.equal(response.status, 503, JSON.stringify(response.body));
  assert.equal(response.body.error, 'store_unavailable');
  assert.equal(response.body.message, STORE_TROUBLE_MESSAGES[trouble]);
  if (trouble === 'busy') assert.equal(response.headers['retry-after'], '5');
  else assert.equal(response.headers['retry-after'], undefined, 'a full disk does not pass by itself');
}

describe('the SQLite store locked by another program, then full', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'store-trouble-'));
  const file = path.join(directory, 'bot.sqlite');
  const h = useHarness({ DATABASE_URL: `sqlite:${file}` });
  let admin: Awaited<ReturnType<ReturnType<typeof h>['signIn']>>;
  const settingsPath = () => `/api/servers/${h().guildId}/settings`;
  const levelsOf = (userId: string) => h().product.store.models.UserLevel.findOne({ where: { guildId: h().guildId, userId } });
  before(async () => {
    admin = await h().signIn(h().demo.adminUserId);
  });

  test('held lock: writes answer 503 busy and change nothing, reads and health go on, earned XP is written after', async () => {
    const before = (await admin.get(settingsPath()).expect(200)).body as { xpCooldown: number };
    const member = h().demo.plainMemberId;
    const counted = (await levelsOf(member))?.messagesCount ?? 0;

    const other = new sqlite3.Database(file);
    await run(other, 'BEGIN IMMEDIATE');
    try {
      const write = admin.put(settingsPath(), { xpCooldown: before.xpCooldown + 7 });
      const give = h().slash(member, 'give', { member: h().demo.adminUserId, amount: 1 });
      for (let i = 0; i < 3; i += 1)
        await h().control('POST', `/channels/${h().demo.channels.general}/messages`, { authorId: member, content: `while locked ${i}` });
      // Reads need no lock (write-ahead log): the dashboard and the health check still answer.
      assert.equal((await admin.get(settingsPath())).status, 200);
      const health = await fetch(`${h().product.url}/api/health`);
      assert.equal(health.status, 200);

      await expectStoreFailure(await write, 'busy');
      const reply = (await give).body as { content?: string };
      assert.equal(reply.content, STORE_TROUBLE_MESSAGES.busy, JSON.stringify(reply));
      assert.equal(reply.content, STORE_TROUBLE_MESSAGES.busy, 'the member reads why, privately');
    } finally {
      await run(other, 'ROLLBACK');
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }

    assert.equal(
      ((await admin.get(settingsPath()).expect(200)).body as { xpCooldown: number }).xpCooldown,
      before.xpCooldown,
      'the refused write changed nothing',
    );
    await waitFor(async () => ((await levelsOf(member))?.messagesCount ?? 0) === counted + 3, 10_000, 'the messages posted while locked to be counted once');
    const retried = await admin.put(settingsPath(), { xpCooldown: before.xpCooldown + 7 });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
  });

  test('full disk: writes answer 503 full and change nothing; once there is room they work again', async () => {
    const before = (await admin.get(settingsPath()).expect(200)).body as { welcomeMessage: string };
    // Texts longer than a page: the row and its history entry need new (overflow) pages, and after
    // VACUUM the file has no free page left to reuse.
    const long = (words: string, length: number) => `{user} ${words.repeat(Math.ceil(length / words.length))}`.slice(0, length);
    const change = {
      welcomeMessage: long('Welcome, read the rules. ', 1800),
      welcomeDmMessage: long('Glad you came. ', 1800),
      rulesMessage: long('Be kind to each other. ', 3800),
    };
    await h().product.store.sequelize.query('VACUUM');
    const member = h().demo.plainMemberId;
    const counted = (await levelsOf(member))?.messagesCount ?? 0;
    const uncap = capSize(h().product.store);
    try {
      await expectStoreFailure(await admin.put(settingsPath(), change), 'full');
      await h().control('POST', `/channels/${h().demo.channels.general}/messages`, { authorId: member, content: 'while full' });
      assert.equal((await admin.get(settingsPath())).status, 200, 'reads go on');
    } finally {
      uncap();
    }
    assert.equal(
      ((await admin.get(settingsPath()).expect(200)).body as { welcomeMessage: string }).welcomeMessage,
      before.welcomeMessage,
      'nothing half-written',
    );
    await waitFor(async () => ((await levelsOf(member))?.messagesCount ?? 0) === counted + 1, 10_000, 'the message posted while full to be counted');
    assert.equal((await admin.put(settingsPath(), change)).status, 200);
    const [check] = await h().product.store.sequelize.query<{ integrity_check: string }>('PRAGMA integrity_check', { type: 'SELECT' as never });
    assert.equal(check?.integrity_check, 'ok');
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe('a PostgreSQL table locked elsewhere', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  // The database must exist before the harness (whose before hook runs next) starts the product on it.
  before(async () => {
    database = await storeBackends()
      .find((candidate) => candidate.name === 'postgres')
      ?.createDatabase();
  });
  after(async () => {
    // The product first (the harness's own close after this one is then a no-op), then its database.
    await h().product.close();
    await database?.drop();
  });
  const env: NodeJS.ProcessEnv = {};
  Object.defineProperty(env, 'DATABASE_URL', { enumerable: true, get: () => database?.url });
  const h = useHarness(env);

  test('a write waits lock_timeout, answers 503 busy, and works once the lock is gone', async () => {
    const product = h();
    const admin = await product.signIn(product.demo.adminUserId);
    const url = `/api/servers/${product.guildId}/settings`;
    const locker = new pg.Client({ connectionString: database?.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      // EXCLUSIVE lets others read the table but not write it.
      await locker.query('LOCK TABLE guild_settings, settings_history IN EXCLUSIVE MODE');
      const started = Date.now();
      await expectStoreFailure(await admin.put(url, { xpCooldown: 77 }), 'busy');
      assert.ok(Date.now() - started >= 4000, 'it waited for the lock first');
      assert.equal((await admin.get(url)).status, 200, 'reads go on');
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    assert.equal((await admin.put(url, { xpCooldown: 77 })).status, 200);
  });
});
