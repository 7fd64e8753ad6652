// Stopping the product is a list of named steps run in order (stop taking requests, stop taking
// gateway events, write what waits, close the gateway, close the store). A step that fails is
// logged and the next one still runs; a step that hangs is named when the deadline passes, so a
// self-hoster whose container was killed knows what it was waiting for.
import type { Logger } from '../logger';

/** One thing to stop, named for the log. */
export interface ShutdownStep {
  name: string;
  run(): unknown;
}

/** How a shutdown ended. */
export interface ShutdownOutcome {
  /** Every step finished (some may have failed: they are logged) before the deadline. */
  finished: boolean;
  /** When the deadline passed: the step still running, then those that never started. */
  unfinished: string[];
}

/**
 * Runs the steps one after another. Resolves when the last finishes, or at `deadlineMs` with the
 * names of the step still running and those after it (the steps go on in the background: the
 * caller decides whether to wait longer or exit).
 */
export function runShutdown(steps: readonly ShutdownStep[], options: { logger: Logger; deadlineMs?: number }): Promise<ShutdownOutcome> {
  const { logger, deadlineMs } = options;
  let current = 0;
  const all = (async (): Promise<ShutdownOutcome> => {
    for (; current < steps.length; current++) {
      const step = steps[current];
      if (!step) continue;
      try {
        await step.run();
      } catch (error) {
        logger.error({ err: error, step: step.name }, `shutdown: ${step.name} failed`);
      }
    }
    return { finished: true, unfinished: [] };
  })();
  if (deadlineMs === undefined) return all;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ShutdownOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ finished: false, unfinished: steps.slice(current).map((step) => step.name) }), deadlineMs);
  });
  return Promise.race([all, deadline]).finally(() => clearTimeout(timer));
}
