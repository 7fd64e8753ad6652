/**
 * Keeps answers for a short time: busy read routes (the leaderboard, economy stats) serve from
 * memory between the writes that change them (the XP flush runs once a second).
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 1000,
  ) {}

  /** The cached value of `key`, or `load()`'s (a failed load is not kept). */
  get<V extends T>(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value as Promise<V>;
    const value = load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { at: this.now(), value });
    value.catch(() => this.entries.delete(key));
    return value;
  }

  /** Forgets every key that starts with `prefix` (all of them without one). */
  invalidate(prefix = ''): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
