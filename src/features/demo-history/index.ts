// The demo server with a month behind it (sandbox mode, DEMO_HISTORY on): on the first start the
// sandbox's demo month is applied and the product writes its side of it; later starts apply the
// same month to the fresh sandbox (the anchor is kept in guild_state) and write nothing; a reset
// (POST /_sandbox/demo/reset) wipes the demo guild's product data and makes a month ending now.
import type { Services } from '../../core/services';
import type { DemoHistory, DemoResetOutcome } from '../../sandbox/demo-history-types';
import { writeDemoHistory, type DemoCounts } from './write';

/** The sandbox as the demo history uses it (main.ts binds it to the sandbox's world). */
export interface DemoSandbox {
  /** The demo guild's id. */
  guildId: string;
  /** The seed of the history. */
  seed: number;
  /** Applies the month ending at `anchorMs` to the sandbox (the same one again changes nothing) and returns it. */
  apply(anchorMs: number): DemoHistory;
  /** Sets what the sandbox's reset control runs. */
  onReset(reset: () => Promise<DemoResetOutcome>): void;
}

/**
 * The demo guild's rows the history writes, wiped by a reset (settings, grants and the rest of the
 * guild's configuration are kept).
 */
const HISTORY_MODELS = [
  'UserLevel',
  'UserCurrency',
  'Transaction',
  'ShopItem',
  'UserInventory',
  'MemberActivity',
  'GuildDailyStats',
  'CommandUsage',
  'ModerationLog',
  'ModerationReport',
  'ModerationAppeal',
  'Announcement',
  'ReactionRole',
  'ReactionRoleEvent',
  'XpAdjustment',
  'LevelBackup',
] as const;

/** Whether the guild has rows of its own (then a first start writes no history over them). */
async function hasData(services: Services, guildId: string): Promise<boolean> {
  const data = services.store.guild(guildId);
  const counts = await Promise.all(HISTORY_MODELS.map((name) => data[name].count()));
  return counts.some((count) => count > 0);
}

/** Applies the month to the sandbox and, on the demo's first start, writes the product's side; registers the reset. */
export async function startDemoHistory(services: Services, sandbox: DemoSandbox): Promise<DemoCounts | null> {
  const logger = services.logger.child({ face: 'demo-history' });
  sandbox.onReset(() => resetDemoHistory(services, sandbox));
  const marker = await services.guildState.get(sandbox.guildId, 'demoHistory');
  if (marker) {
    sandbox.apply(Date.parse(marker.anchor));
    return null;
  }
  if (await hasData(services, sandbox.guildId)) {
    logger.info('the demo server has data of its own: no demo history written (POST /_sandbox/demo/reset makes one)');
    return null;
  }
  const started = performance.now();
  const counts = await write(services, sandbox, services.clock.ms());
  logger.info({ ...counts, ms: Math.round(performance.now() - started) }, 'demo history written');
  return counts;
}

/** Wipes the demo guild's history rows and writes a month ending now. */
export async function resetDemoHistory(services: Services, sandbox: DemoSandbox): Promise<DemoResetOutcome> {
  const started = performance.now();
  const data = services.store.guild(sandbox.guildId);
  await services.store.sequelize.transaction(async (transaction) => {
    for (const name of HISTORY_MODELS) await data[name].destroy({ transaction });
  });
  await services.guildState.delete(sandbox.guildId, 'demoHistory');
  services.readCache.invalidate(`${sandbox.guildId}:`);
  const anchorMs = services.clock.ms();
  const counts = await write(services, sandbox, anchorMs);
  return { anchor: new Date(anchorMs).toISOString(), ...counts, ms: Math.round(performance.now() - started) };
}

/** Applies the month ending at `anchorMs`, writes the product's side, then the marker. */
async function write(services: Services, sandbox: DemoSandbox, anchorMs: number): Promise<DemoCounts> {
  const history = sandbox.apply(anchorMs);
  const counts = await writeDemoHistory(services, history);
  await services.guildState.set(sandbox.guildId, 'demoHistory', { seed: sandbox.seed, anchor: new Date(anchorMs).toISOString() });
  services.readCache.invalidate(`${sandbox.guildId}:`);
  return counts;
}
