import { featureState } from '../../core/feature';
import { Players } from './players';
import { KeyedQueue } from '../../core/keyed-queue';

/** Answers of ffmpegAvailable (settings.ts) by ffmpeg's path, each with when it was asked. */
export type FfmpegChecks = Map<string, { at: number; ok: Promise<boolean> }>;

/** Music's state: the queue that keeps each guild's library writes one at a time, the players, and whether ffmpeg runs. */
export const musicState = featureState('music', (services) => ({
  library: new KeyedQueue(),
  players: new Players(services),
  /** When each server's 24/7 station was last started (radio.ts), on the product's clock. */
  radioStarts: new Map<string, number>(),
  ffmpegChecks: new Map() as FfmpegChecks,
}));
