import type { Model, ModelStatic } from 'sequelize';
import { setBounded } from '../core/bounded-map';

/** How long a cached row is believed: another process sharing the store (the scale path) sees a change this late at most. */
export const ROW_CACHE_TTL_MS = 2000;
const MAX_ENTRIES = 10_000;

/**
 * Rows read by primary key on every request (the signed-in session and its account), kept in
 * memory for a short time so a signed-in request touches the store only once per TTL.
 *
 * The model's own hooks evict: saving or destroying a row forgets it, and so does a bulk update or
 * destroy by its primary key; any other bulk write (sign out everywhere, the expiry sweep) forgets
 * everything. A load that races an
 * eviction is answered but not kept, so a write is never hidden behind an older read. Absent rows
 * are kept too (a stale cookie asks once per TTL), and the oldest entries go first past 10,000.
 */
export class RowCache<M extends Model> {
  /** `at` is when the row was read, or null while its read is under way (every caller meanwhile shares it). */
  private readonly entries = new Map<string, { at: number | null; row: Promise<M | null> }>();

  constructor(
    private readonly model: ModelStatic<M>,
    private readonly ttlMs = ROW_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    const pk = model.primaryKeyAttribute;
    const forgetRow = (row: M) => this.forget(String(row.get(pk)));
    model.addHook('afterSave', forgetRow);
    model.addHook('afterDestroy', forgetRow);
    model.addHook('afterUpsert', (result: [M, boolean | null]) => forgetRow(result[0]));
    // A bulk write by primary key forgets that row; any other forgets them all.
    const forgetWhere = (options: { where?: unknown }) => {
      const where = options.where as Record<string, unknown> | undefined;
      const id = where && Object.keys(where).length === 1 ? where[pk] : undefined;
      if (typeof id === 'string' || typeof id === 'number') this.forget(id);
      else this.clear();
    };
    model.addHook('afterBulkUpdate', forgetWhere);
    model.addHook('afterBulkDestroy', forgetWhere);
  }

  /**
   * The row with primary key `id`, or null. Requests arriving while it is read share that one
   * read: fifty connections of one signed-in browser whose entry just expired cost one query, not
   * fifty queued on the store.
   */
  get(id: string | number): Promise<M | null> {
    const key = String(id);
    const hit = this.entries.get(key);
    if (hit && (hit.at === null || this.now() - hit.at < this.ttlMs)) return hit.row;
    const entry: { at: number | null; row: Promise<M | null> } = { at: null, row: this.model.findByPk(id) };
    setBounded(this.entries, key, entry, MAX_ENTRIES);
    // A write meanwhile forgot the entry: the read is answered but not kept. A failed read is not kept either.
    entry.row.then(
      () => {
        if (this.entries.get(key) === entry) entry.at = this.now();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.row;
  }

  /** Forgets one row (after a write). */
  forget(id: string | number): void {
    this.entries.delete(String(id));
  }

  /** Forgets every row. */
  clear(): void {
    this.entries.clear();
  }
}
