import type { World } from './world';

/** Placeholder replaced in step 3. */
export class InteractionStore {
  /** Interactions belong to a world. */
  constructor(readonly world: World) {}
  /** Stops timers. */
  close(): void {}
}
