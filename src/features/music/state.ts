import { featureState } from '../../core/feature';
import { Players } from './players';
import type { FfmpegChecks } from './settings';
import { KeyedQueue } from './state-queue';

/** Music's state: the queue that keeps each guild's library writes one at a time, the players, and whether ffmpeg runs. */
export const musicState = featureState('music', (services) => ({
  library: new KeyedQueue(),
  players: new Players(services),
  ffmpegChecks: new Map() as FfmpegChecks,
}));
