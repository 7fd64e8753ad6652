import { featureState } from '../../core/feature';
import { PeriodicTask } from '../../core/periodic';
import type { Services } from '../../core/services';
import { retryDueGrants, RETRY_TICK_MS } from './retry';
import { pruneSettledGrants } from './service';

/** How often settled grants are pruned. */
const PRUNE_INTERVAL_MS = 60 * 60_000;

/** The retrier's pass: due grants, and now and then the pruning of settled ones. */
function retrierWork(services: Services): () => Promise<void> {
  let prunedAt = -Infinity;
  return async () => {
    await retryDueGrants(services);
    if (services.clock.ms() - prunedAt < PRUNE_INTERVAL_MS) return;
    prunedAt = services.clock.ms();
    await pruneSettledGrants(services);
  };
}

/** Role grants' state: the retrier of grants Discord could not take. */
export const roleGrantState = featureState('role-grants', (services) => ({
  retrier: new PeriodicTask('role grant retries', retrierWork(services), services.logger, RETRY_TICK_MS),
}));
