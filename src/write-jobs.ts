// The write-behind jobs the store writer runs (src/db/writer.ts), by name: the one list both
// threads use, the product's (on an in-memory store) and the writer's (src/writer.ts).
import { writeActivity } from './db/activity-write';
import { writeAccruals } from './features/leveling/flush';
import type { WriteJobRegistry } from './core/write-jobs';

declare module './core/write-jobs' {
  interface WriteJobRegistry {
    /** An XP and coin flush (src/features/leveling/accruals.ts). */
    accruals: typeof writeAccruals;
    /** The activity counts (src/core/activity.ts). */
    activity: typeof writeActivity;
  }
}

export const WRITE_JOBS: WriteJobRegistry = { accruals: writeAccruals, activity: writeActivity };
