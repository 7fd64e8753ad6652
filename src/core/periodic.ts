import type { Logger } from '../logger';
import { failureFields, storeFailure } from './store-errors';

/**
 * Work that runs on a timer and on demand, one run at a time (a run asked for during another waits
 * for it), and keeps running after a run fails: the write-behind flushes of the stats and of XP.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly work: () => Promise<void>,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  /** Starts the timer (it does not keep the process alive). */
  start(): void {
    this.timer ??= setInterval(() => void this.run(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and runs the work one last time. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.run();
  }

  /** Runs the work after any run in progress; a failure is logged and the next run goes ahead. */
  run(): Promise<void> {
    this.running = this.running.then(this.work).catch((error: unknown) => {
      // The store's own trouble (locked, full, unreachable) is the operator's: one line, no stack.
      const failure = storeFailure(error);
      if (failure) this.logger.warn(failureFields(failure, error), `${this.name} failed; it runs again`);
      else this.logger.error({ err: error }, `${this.name} failed`);
    });
    return this.running;
  }
}
