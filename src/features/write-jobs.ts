// The write-behind jobs the store writer runs (src/db/writer.ts), by name: the one list both
// threads use, the product's (on an in-memory store) and the writer's (src/writer.ts).
import type { StoreWriter } from '../db/writer';
import { writeAccruals } from './leveling/flush';
import { writeActivity } from './stats/activity-write';

export const WRITE_JOBS = {
  /** An XP and coin flush (src/features/leveling/accruals.ts). */
  accruals: writeAccruals,
  /** The activity counts (src/features/stats/recorder.ts). */
  activity: writeActivity,
};

/** The product's store writer. */
export type ProductWriter = StoreWriter<typeof WRITE_JOBS>;
