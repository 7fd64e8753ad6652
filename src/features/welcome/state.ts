import { featureState } from '../../core/feature';
import { LastSeenTracker } from './catchup';

/** Welcome's state: when the bot last saw each guild (joins after it are caught up on at start). */
export const welcomeState = featureState('welcome', (services) => ({
  lastSeen: new LastSeenTracker({ guildState: services.guildState, clock: services.clock, logger: services.logger.child({ face: 'welcome' }) }),
}));
