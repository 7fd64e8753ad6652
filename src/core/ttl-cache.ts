/** One kept answer. */
interface Entry<T> {
  /** When its load started. */
  at: number;
  value: Promise<T>;
  /** True once `value` resolved (a pending load is shared, never replaced). */
  settled: boolean;
  /** Background writes changed what it was read from: it is answered once more while a fresh load runs. */
  stale: boolean;
  /** A fresh load is running in the background. */
  refreshing: boolean;
}

/**
 * Keeps answers for a short time: busy read routes (every guild GET of the dashboard) serve from
 * memory between the writes that change them.
 *
 * - A fresh entry (younger than `ttlMs`, not marked stale) is answered as it is.
 * - An entry past its time or marked stale by `markStale` (the XP flush: data the bot changes
 *   several times a second) is still answered while one load refreshes it in the background, up to
 *   `graceMs` after its time; so readers never wait on a recompute while chat goes on, and see
 *   the bot's changes a moment later.
 * - `invalidate` forgets entries outright: after a write someone made and expects to see (a
 *   dashboard save, a command), the next read loads afresh.
 *
 * Concurrent reads of a key being loaded share that one load.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 1000,
    private readonly graceMs = 5000,
  ) {}

  /** The cached value of `key`, or `load()`'s (a failed load is not kept). */
  get<V extends T>(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      const age = this.now() - hit.at;
      if (!hit.settled || (age < this.ttlMs && !hit.stale)) return hit.value as Promise<V>;
      if (age < this.ttlMs + this.graceMs) {
        if (!hit.refreshing) this.refresh(key, hit, load);
        return hit.value as Promise<V>;
      }
    }
    return this.store(key, load()).value as Promise<V>;
  }

  /** Marks every key that starts with `prefix` as stale (see the class comment). */
  markStale(prefix = ''): void {
    for (const [key, entry] of this.entries) if (key.startsWith(prefix)) entry.stale = true;
  }

  /** Forgets every key that starts with `prefix` (all of them without one). */
  invalidate(prefix = ''): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private store(key: string, value: Promise<T>, at = this.now()): Entry<T> {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) {
      // The oldest key goes (a Map iterates in insertion order).
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const entry: Entry<T> = { at, value, settled: false, stale: false, refreshing: false };
    this.entries.set(key, entry);
    value.then(
      () => {
        entry.settled = true;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry;
  }

  /** Loads `key` again in the background; the old entry is answered until the new one resolves. */
  private refresh(key: string, old: Entry<T>, load: () => Promise<T>): void {
    old.refreshing = true;
    const startedAt = this.now();
    const loading = load();
    loading.then(
      () => {
        // Unless the key was invalidated or replaced meanwhile (then that newer state wins).
        if (this.entries.get(key) !== old) return;
        this.store(key, loading, startedAt).settled = true;
      },
      () => {
        old.refreshing = false;
        // A failed refresh leaves the next reader to load it and see the failure.
        if (this.entries.get(key) === old) this.entries.delete(key);
      },
    );
  }
}
