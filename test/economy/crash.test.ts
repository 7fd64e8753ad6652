// `kill -9` while messages are earning XP and coins, on a SQLite file and on PostgreSQL when
// TEST_DATABASE_URL is set. The sandbox Discord runs in this process (it outlives the product);
// the product runs in a child process on the real clock (test/economy/crash-product.ts), which
// reports each message as it reaches the bot and a heartbeat. Members post steadily; the child is
// killed with SIGKILL mid-stream; the product restarts on the same store. Then: the SQLite file
// passes `PRAGMA integrity_check`; nothing is doubled (no member has more messages counted than
// reached the bot, coins are exactly the base reward per counted message, each level bonus is paid
// once, XP, levels and the daily XP agree, the ledger is whole); at most the last second is missing
// (every message that reached the bot more than a second and a margin before the kill is counted,
// and was written by a flush within that time); and the restarted product earns normally.
//
// Times come from the child and the store, not from this process: a message's arrival is the
// child's stamp, a flush's time is the `createdAt` of the "Chat rewards" rows it wrote (one `now`
// per flush). So a slow test process (it also runs the sandbox) cannot make the product look late.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { QueryTypes } from 'sequelize';
import { systemClock } from '../../src/core/clock';
import { openStore, type Store } from '../../src/db/store';
import { SettingsStore } from '../../src/db/settings-store';
import { createLogger } from '../../src/logger';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { levelFromTotal, XP_PER_MESSAGE } from '../../src/shared/leveling';
import { startTestProduct, TEST_SANDBOX_RATE_LIMITS } from '../helpers/product';
import { storeBackends } from '../helpers/store';
import { waitFor } from '../helpers/wait';
import { HEARTBEAT_MS, type CrashProductReady, type RemoteSandboxInfo } from './crash-product';
import { assertLedgerWhole } from './ledger';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The promise: an accrual waits at most this long before a flush writes it. */
const FLUSH_PROMISE_MS = 1000;
/**
 * What the checks allow beyond the promise and beyond the child's own measured stalls (see
 * `stallMs`): the flush transaction up to its `now` stamp (BEGIN, and on SQLite the wait for the
 * process's transaction queue behind the activity flush) and on to its COMMIT, tens of ms on
 * either backend (the lost windows seen under load were under 1 s), and scheduling noise smaller
 * than a heartbeat. With it, a flush every 2 s fails the timeliness check (messages wait ~2 s) and
 * a flush every 10 s leaves nothing written before the kill.
 */
const MARGIN_MS = 300;
/** Members posting (every message earns: the cooldown is 0). */
const POSTERS = 20;
/** Posting pace: one message every this many ms (50 a second, 2.5 a second per member). */
const POST_EVERY_MS = 20;
/** How long messages flow after the first reaches the bot, before the kill. */
const FLOW_BEFORE_KILL_MS = 4000;
/** The guild's settings for the run: every message earns a known amount of coins; XP unmultiplied. */
const RUN_SETTINGS = {
  levelingEnabled: true,
  economyEnabled: true,
  xpCooldown: 0,
  baseReward: 10,
  levelUpBonus: 100,
  levelUpAnnouncements: false,
  textMultiplier: 1,
  weekendMultiplier: 1,
  boostMultiplier: 1,
};

/** What the child reported before it died. */
interface ChildReport {
  /** Messages that reached the bot, with the child's time. */
  received: { userId: string; at: number }[];
  /** The child's heartbeat times. */
  heartbeats: number[];
}

/** Writes the run's settings for the guild, as the dashboard would, before any product starts. */
async function configureGuild(databaseUrl: string, guildId: string): Promise<void> {
  const store = await openStore(databaseUrl);
  try {
    await store.migrate();
    const settings = new SettingsStore({ store, clock: systemClock, logger: createLogger('silent') });
    await settings.change(guildId, async (current) => ({
      next: { ...current, settings: { ...current.settings, ...RUN_SETTINGS } },
      record: { actor: { userId: null, name: 'crash test' }, kind: 'update', summary: 'crash test settings', changes: [] },
    }));
  } finally {
    await store.close();
  }
}

/** A product in a child process: what it reports, and when it has exited with its output read. */
interface ChildProduct {
  child: ChildProcess;
  ready: CrashProductReady;
  report: ChildReport;
  /** Resolves with the signal that ended the child once its output is fully read. */
  ended: Promise<NodeJS.Signals | null>;
}

/** Starts the product in a child process against the sandbox; resolves when its bot is ready. */
function spawnProduct(sandbox: Sandbox, databaseUrl: string): Promise<ChildProduct> {
  const info: RemoteSandboxInfo = {
    url: sandbox.url,
    apiBase: sandbox.apiBase,
    cdnBase: sandbox.cdnBase,
    gatewayUrl: sandbox.gatewayUrl,
    botToken: sandbox.botToken,
    oauth: { ...sandbox.oauth },
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/economy/crash-product.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, CRASH_SANDBOX: JSON.stringify(info) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
  // 'close' comes after 'exit' once stdout is drained: every line the child wrote is in the report.
  const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
  const report: ChildReport = { received: [], heartbeats: [] };
  return new Promise((resolve, reject) => {
    let pending = '';
    const timer = setTimeout(() => reject(new Error(`the product child was not ready in 45 s: ${stderr}`)), 45_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const [kind, first, second] = line.split(' ');
        if (kind === 'r' && first && second) report.received.push({ userId: first, at: Number(second) });
        else if (kind === 'h' && first) report.heartbeats.push(Number(first));
        else if (line.startsWith('{')) {
          clearTimeout(timer);
          resolve({ child, ready: JSON.parse(line) as CrashProductReady, report, ended });
        }
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the product child exited (${code ?? signal}) before it was ready: ${stderr}`));
    });
  });
}

/**
 * The longest the child's event loop stood still beyond its heartbeat, between `from` and `to`:
 * a flush timer is as late as that (the machine's load, not the product's choice), so the
 * timeliness checks allow it on top of the promise.
 */
function stallMs(heartbeats: number[], from: number, to: number): number {
  const inWindow = heartbeats.filter((at) => at >= from && at <= to);
  let worst = 0;
  for (let i = 1; i < inWindow.length; i += 1) worst = Math.max(worst, (inWindow[i] ?? 0) - (inWindow[i - 1] ?? 0) - HEARTBEAT_MS);
  // The stretch from the last heartbeat to the kill counts too.
  return Math.max(worst, to - (inWindow.at(-1) ?? to) - HEARTBEAT_MS);
}

/** The times of the flushes that wrote this guild's chat rewards (each flush stamps its rows with one `now`). */
async function flushTimes(store: Store, guildId: string): Promise<number[]> {
  const rows = await store.models.Transaction.findAll({ attributes: ['createdAt'], where: { guildId, description: 'Chat rewards' } });
  return [...new Set(rows.map((row) => new Date(row.createdAt).getTime()))].sort((a, b) => a - b);
}

/** The guild's stored message total (the sum of every member's count). */
async function storedTotal(store: Store, guildId: string): Promise<number> {
  const [row] = await store.sequelize.query<{ total: number | null }>(`SELECT SUM("messagesCount") AS "total" FROM user_levels WHERE "guildId" = ?`, {
    type: QueryTypes.SELECT,
    replacements: [guildId],
  });
  return Number(row?.total ?? 0);
}

/** How many of each member's messages there are. */
function countBy(messages: { userId: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of messages) counts.set(message.userId, (counts.get(message.userId) ?? 0) + 1);
  return counts;
}

/**
 * Asserts that what is stored is at most one accrual per message that reached a bot, and
 * self-consistent: coins are exactly the base reward per counted message plus each level bonus
 * once, XP is 5-20 per counted message, levels follow XP, the daily XP is the members' XP, and
 * the ledger is whole. Returns the guild's stored message total.
 */
async function assertNothingDoubled(store: Store, guildId: string, reached: { userId: string }[]): Promise<number> {
  const reachedBy = countBy(reached);
  const levels = await store.models.UserLevel.findAll({ where: { guildId } });
  let total = 0;
  let xp = 0;
  for (const row of levels) {
    const count = row.messagesCount;
    total += count;
    xp += Number(row.totalXp);
    assert.ok(
      count <= (reachedBy.get(row.userId) ?? 0),
      `${row.userId} has ${count} messages counted but only ${reachedBy.get(row.userId) ?? 0} reached the bot`,
    );
    assert.ok(row.totalXp >= count * XP_PER_MESSAGE.min && row.totalXp <= count * XP_PER_MESSAGE.max, `${row.userId}: ${row.totalXp} XP for ${count} messages`);
    assert.deepEqual({ level: row.level, xp: row.xp }, levelFromTotal(Number(row.totalXp)), `${row.userId}'s level follows their XP`);
    const rows = await store.models.Transaction.findAll({ where: { guildId, userId: row.userId } });
    const chat = rows.filter((t) => t.description === 'Chat rewards').reduce((sum, t) => sum + t.amount, 0);
    assert.equal(chat, count * RUN_SETTINGS.baseReward, `${row.userId}: chat rewards are the base reward per counted message`);
    const bonuses = rows.filter((t) => t.description?.endsWith(' bonus'));
    assert.equal(new Set(bonuses.map((t) => t.description)).size, bonuses.length, `${row.userId}: each level bonus is paid once`);
    assert.equal(
      bonuses.reduce((sum, t) => sum + t.amount, 0),
      (row.level - 1) * RUN_SETTINGS.levelUpBonus,
      `${row.userId}: bonuses for levels 2-${row.level}`,
    );
    const wallet = await store.models.UserCurrency.findOne({ where: { guildId, userId: row.userId } });
    assert.equal(wallet?.balance ?? 0, chat + (row.level - 1) * RUN_SETTINGS.levelUpBonus, `${row.userId}: the balance is the chat rewards and bonuses`);
  }
  const [daily] = await store.sequelize.query<{ xp: number | null }>(`SELECT SUM("xp") AS "xp" FROM guild_daily_stats WHERE "guildId" = ?`, {
    type: QueryTypes.SELECT,
    replacements: [guildId],
  });
  assert.equal(Number(daily?.xp ?? 0), xp, "the daily XP is the sum of the members' XP (each flush wrote both or neither)");
  await assertLedgerWhole(store, guildId);
  return total;
}

for (const backend of storeBackends()) {
  describe(`kill -9 while earning on ${backend.name}`, () => {
    test('after a restart at most the last second of accruals is missing, nothing is doubled, the store is intact', { timeout: 90_000 }, async (t) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'bot-crash-'));
      const database = backend.name === 'postgres' ? await backend.createDatabase() : { url: `sqlite:${path.join(dir, 'bot.sqlite')}`, drop: async () => {} };
      const sandbox = await startSandbox({ port: 0, memberCount: 40, rateLimits: TEST_SANDBOX_RATE_LIMITS });
      const { guildId, channels } = sandbox.world.demo;
      const members = [...sandbox.world.requireGuild(guildId).members.keys()].filter((id) => !sandbox.world.users.get(id)?.bot).slice(0, POSTERS);
      assert.equal(members.length, POSTERS);
      let posted = 0;
      const post = async (userId: string, content: string): Promise<void> => {
        const response = await fetch(`${sandbox.url}/_sandbox/channels/${channels.general}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ authorId: userId, content }),
        });
        if (response.status !== 201) throw new Error(`posting answered ${response.status}: ${await response.text()}`);
        posted += 1;
      };
      let child: ChildProcess | undefined;
      let restarted: Awaited<ReturnType<typeof startTestProduct>> | undefined;
      let flowing = true;
      let posting: Promise<void> = Promise.resolve();
      try {
        await configureGuild(database.url, guildId);
        const running = await spawnProduct(sandbox, database.url);
        child = running.child;
        const { report } = running;

        // Members post steadily, on a schedule (a late post is sent at once, not skipped).
        posting = (async () => {
          const start = Date.now();
          for (let n = 0; flowing; n += 1) {
            await post(members[n % members.length] ?? '', `steady ${n}`);
            const wait = start + (n + 1) * POST_EVERY_MS - Date.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
        })();
        await waitFor(() => report.received.length > 0, 10_000, 'the first message to reach the bot');
        await new Promise((resolve) => setTimeout(resolve, FLOW_BEFORE_KILL_MS));

        // The crash: SIGKILL mid-stream; nothing of the product runs after this.
        const killedAt = Date.now();
        running.child.kill('SIGKILL');
        flowing = false;
        assert.equal(await running.ended, 'SIGKILL', 'the product died by SIGKILL');
        await posting;

        // The restart, in this process, on the same store and the same Discord.
        restarted = await startTestProduct({ DATABASE_URL: database.url }, { sandbox });
        const { store } = restarted;
        if (store.dialect === 'sqlite') {
          const check = await store.sequelize.query<{ integrity_check: string }>('PRAGMA integrity_check', { type: QueryTypes.SELECT });
          assert.deepEqual(
            check.map((row) => row.integrity_check),
            ['ok'],
          );
        }
        const received = report.received;
        const total = await assertNothingDoubled(store, guildId, received);
        assert.ok(received.length <= posted, `${received.length} messages reached the bot, ${posted} were posted`);

        // At most the last second (plus the child's own stalls and a margin) is missing...
        const firstAt = received[0]?.at ?? killedAt;
        const stall = stallMs(report.heartbeats, firstAt, killedAt);
        const allowed = FLUSH_PROMISE_MS + MARGIN_MS + stall;
        const due = received.filter((message) => message.at <= killedAt - allowed);
        assert.ok(
          total >= due.length,
          `every message that reached the bot more than ${allowed} ms before the kill is counted: ${total} counted, ${due.length} due, ` +
            `${received.length} reached the bot`,
        );
        // ...and each of those was written by a flush at most that long after it arrived.
        const flushes = await flushTimes(store, guildId);
        assert.ok(flushes.length >= 2, `at least two flushes were written before the kill (${flushes.length})`);
        const waits = due.map((message) => (flushes.find((at) => at >= message.at) ?? Infinity) - message.at);
        const longest = Math.max(0, ...waits);
        assert.ok(
          longest <= allowed,
          `a message waited ${longest} ms for its flush (allowed ${allowed} ms = ${FLUSH_PROMISE_MS} + ${MARGIN_MS} + a stall of ${stall} ms)`,
        );
        const gaps = flushes.slice(1).map((at, i) => at - (flushes[i] ?? at));
        // Flushes write everything that arrived before them, so the counted messages are the first `total` to arrive.
        const lost = received[total] ? `the last ${killedAt - (received[total]?.at ?? killedAt)} ms` : 'nothing';
        t.diagnostic(
          `${backend.name}: ${posted} posted, ${received.length} reached the bot, ${total} counted after the crash (${due.length} due), ${lost} lost; ` +
            `longest wait ${longest} ms of ${allowed} allowed (stall ${stall} ms); flush gaps ${gaps.join(', ')} ms`,
        );

        // The restarted product earns normally: one message each from ten members, all counted.
        const more = members.slice(0, 10);
        for (const [i, userId] of more.entries()) await post(userId, `after the restart ${i}`);
        await waitFor(async () => (await storedTotal(store, guildId)) === total + more.length, 10_000, 'the messages after the restart to be counted');
        await assertNothingDoubled(store, guildId, [...received, ...more.map((userId) => ({ userId }))]);
      } finally {
        flowing = false;
        await posting.catch(() => undefined);
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await restarted?.close();
        await sandbox.close();
        await database.drop();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
