import { featureState } from '../../core/feature';
import { KeyedQueue } from '../../core/keyed-queue';
import { PeriodicTask } from '../../core/periodic';
import { AutomodEngine } from './automod/engine';
import { renewLongTimeouts } from './long-timeouts';
import { JoinWindow } from './raid-rules';
import { checkRaids } from './raids';
import { liftExpiredBans } from './tempbans';

/** How often expired temporary bans are looked for (real time; what is due asks the clock). */
export const TEMPBAN_INTERVAL_MS = 1000;
/** How often raid mode is checked for its quiet period and invite pause (real time; what is due asks the clock). */
export const RAID_CHECK_INTERVAL_MS = 1000;

/**
 * Moderation's state: the auto moderation engine with who broke a rule lately, the task that lifts
 * expired temporary bans, the one that renews timeouts longer than Discord's 28 days, the queue
 * that keeps a member's timeout changes one at a time, and raid protection's join window, its
 * per-guild turn of joins and the task that falls raid mode back.
 */
export const moderationState = featureState('moderation', (services) => {
  /** One change of a member's timeout at a time (see timeout-changes.ts). */
  const timeoutChanges = new KeyedQueue();
  return {
    automod: { engine: new AutomodEngine(), recent: new Map<string, number>() },
    tempbans: new PeriodicTask('temporary bans', async () => void (await liftExpiredBans(services)), services.logger, TEMPBAN_INTERVAL_MS),
    timeoutChanges,
    longTimeouts: new PeriodicTask('long timeouts', async () => void (await renewLongTimeouts(services, timeoutChanges)), services.logger, TEMPBAN_INTERVAL_MS),
    raids: {
      window: new JoinWindow(),
      /** Each guild's joins, handled one at a time. */
      joins: new KeyedQueue(),
      check: new PeriodicTask('raid mode', () => checkRaids(services), services.logger, RAID_CHECK_INTERVAL_MS),
    },
  };
});
