import { featureState } from '../../core/feature';
import { Accruals } from './accruals';
import { VoiceXp } from './voice';
import { PeriodicTask } from '../../core/periodic';
import { pruneAllExpiredBackups } from './backups';

/** How often expired level backups are pruned. */
const BACKUP_PRUNE_MS = 60 * 60 * 1000;

/** Leveling's state: the XP and coin write-behind, and voice minutes turned into XP. */
export const levelingState = featureState('leveling', (services) => {
  const logger = services.logger.child({ face: 'leveling' });
  const accruals = new Accruals({ writer: services.writer, clock: services.clock, settings: services.settings, logger });
  return {
    accruals,
    voiceXp: new VoiceXp({ gateway: services.gateway, settings: services.settings, clock: services.clock, logger }, accruals),
    backupPrune: new PeriodicTask('level backup prune', () => pruneAllExpiredBackups(services), logger, BACKUP_PRUNE_MS),
  };
});
