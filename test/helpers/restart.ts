// A product that can be stopped and started again while Discord (the sandbox) carries on and
// the store persists: for joins, reactions and schedules that happen while the bot is offline.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManualClock } from '../../src/core/clock';
import type { Product } from '../../src/main';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { signInAs, startTestProduct, TEST_SANDBOX_RATE_LIMITS } from './product';

/** The sandbox, the store's URL, the shared clock and the product running now (if any). */
export interface Restartable {
  sandbox: Sandbox;
  clock: ManualClock;
  databaseUrl: string;
  product(): Product;
  /** Starts a product on the same store and sandbox (a second one too: two processes on one database). */
  start(): Promise<Product>;
  /** Stops the running product (the bot goes offline; Discord does not). */
  stop(): Promise<void>;
  signIn(userId: string): ReturnType<typeof signInAs>;
  close(): Promise<void>;
}

/** Makes a restartable product on a temporary SQLite file, or on `databaseUrl` (a PostgreSQL database). */
export async function restartable(options: { databaseUrl?: string; memberCount?: number } = {}): Promise<Restartable> {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 12));
  const dir = await mkdtemp(path.join(tmpdir(), 'bot-restart-'));
  const databaseUrl = options.databaseUrl ?? `sqlite:${path.join(dir, 'bot.sqlite')}`;
  const sandbox = await startSandbox({ port: 0, memberCount: options.memberCount ?? 40, clock, rateLimits: TEST_SANDBOX_RATE_LIMITS });
  const running: Product[] = [];
  const start = async () => {
    // One music library folder for every start, like one data volume across restarts.
    const product = await startTestProduct({ DATABASE_URL: databaseUrl, MUSIC_DIR: path.join(dir, 'music') }, { sandbox, clock });
    running.push(product);
    return product;
  };
  const current = () => {
    const product = running.at(-1);
    if (!product) throw new Error('no product is running');
    return product;
  };
  return {
    sandbox,
    clock,
    databaseUrl,
    product: current,
    start,
    async stop() {
      const product = running.pop();
      await product?.close();
    },
    signIn: (userId) => signInAs(current(), userId),
    async close() {
      while (running.length > 0) await running.pop()?.close();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
