/**
 * Runs one task at a time per key (a guild's music library, a member's role): two uploads at once must not both pass the
 * quota check before either is written. Keys with nothing queued are forgotten.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued before it under `key`; its result or error is the caller's. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Settles once every task queued so far has (at shutdown: what is under way finishes). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }
}
