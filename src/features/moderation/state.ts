import { featureState } from '../../core/feature';
import { PeriodicTask } from '../../core/periodic';
import { AutomodEngine } from './automod/engine';
import { liftExpiredBans } from './tempbans';

/** How often expired temporary bans are looked for (real time; what is due asks the clock). */
export const TEMPBAN_INTERVAL_MS = 1000;

/** Moderation's state: the auto moderation engine with who broke a rule lately, and the task that lifts expired temporary bans. */
export const moderationState = featureState('moderation', (services) => ({
  automod: { engine: new AutomodEngine(), recent: new Map<string, number>() },
  tempbans: new PeriodicTask('temporary bans', async () => void (await liftExpiredBans(services)), services.logger, TEMPBAN_INTERVAL_MS),
}));
