// Saving an edit of a versioned row (a shop item, a reaction role, an announcement): only the
// fields that change are written, in one transaction with the revision that records them, and
// only if the row is still at the version it was read at (a compare-and-set in the UPDATE's WHERE),
// so two saves at once never interleave. A save based on an older version is checked against the
// revisions since (core/versions: refuseStaleSave).
import { isDeepStrictEqual } from 'node:util';
import { Op, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import { Conflict, NotFound } from '../core/errors';
import { refuseStaleSave, type DescribeValue, type EditMeanwhile } from '../core/versions';
import type { Store } from './store';

/** What kinds of rows keep revisions. */
export type VersionedEntity = 'shopItem' | 'reactionRole' | 'announcement' | 'musicTrack' | 'musicStation';

/** The columns every versioned row has. */
export interface VersionedRow {
  id: number;
  guildId: string;
  version: number;
}

/** Who saves. */
export interface EditActor {
  userId: string | null;
  name: string;
}

/** How many times a save is tried again when another save landed between its read and its write. */
const ATTEMPTS = 3;

/** The revisions of a row after `version`, oldest first, as edits made meanwhile. */
export async function revisionsSince(store: Store, entity: VersionedEntity, row: VersionedRow, version: number): Promise<EditMeanwhile[]> {
  const rows = await store.models.Revision.findAll({
    where: { guildId: row.guildId, entity, entityId: row.id, version: { [Op.gt]: version } },
    order: [['version', 'ASC']],
  });
  return rows.map((revision) => ({ by: revision.actorName, at: revision.createdAt, changes: revision.changes }));
}

/**
 * Saves `values` onto `row` (a fresh read of it) as `actor`, at `now`: the fields whose values
 * differ are written and the version moves on by one, with a revision of each field's from -> to.
 * With `baseVersion` (the version the person's page loaded) older than the row's, a field changed
 * meanwhile to another value than the save's refuses the save (StaleVersion); other changes merge.
 * Returns the row as saved.
 */
export async function saveVersioned<M extends Model & VersionedRow>(
  store: Store,
  options: {
    entity: VersionedEntity;
    row: M;
    values: Partial<Record<string, unknown>>;
    baseVersion?: number | undefined;
    actor: EditActor;
    now: () => Date;
    describe?: DescribeValue;
    /** A condition the row must still meet when written (an announcement not being sent), and the refusal when it no longer does. */
    guard?: { where: WhereOptions; refusal: () => Error };
    /** Columns written along with an edit that are not part of it (updatedAt). */
    alongside?: Partial<Record<string, unknown>>;
  },
): Promise<M> {
  const { entity, values, actor } = options;
  let row = options.row;
  for (let attempt = 1; ; attempt += 1) {
    const current = row.get({ plain: true }) as Record<string, unknown>;
    if (options.baseVersion !== undefined && options.baseVersion < row.version) {
      refuseStaleSave({
        meanwhile: await revisionsSince(store, entity, row, options.baseVersion),
        saving: values,
        stored: current,
        version: row.version,
        ...(options.describe ? { describe: options.describe } : {}),
      });
    }
    const changing = Object.keys(values).filter((field) => !isDeepStrictEqual(values[field], current[field]));
    if (changing.length === 0) return row;
    const model = row.constructor as ModelStatic<M>;
    const next = row.version + 1;
    const written = await store.sequelize.transaction(async (transaction) => {
      const set = { ...options.alongside, ...Object.fromEntries([...changing.map((field) => [field, values[field]]), ['version', next]]) };
      const where = { ...(options.guard?.where as object | undefined), id: row.id, version: row.version } as WhereOptions;
      const [affected] = await model.update(set as never, { where, transaction });
      if (affected === 0) return false;
      await store.models.Revision.create(
        {
          guildId: row.guildId,
          entity,
          entityId: row.id,
          version: next,
          actorId: actor.userId,
          actorName: actor.name,
          changes: changing.map((field) => ({ field, from: current[field] ?? null, to: values[field] ?? null })),
          createdAt: options.now(),
        },
        { transaction },
      );
      return true;
    });
    if (written) return (await row.reload()) as M;
    // Another save landed between the read and the write: read again and decide again.
    const fresh = (await model.findByPk(row.id)) as M | null;
    if (!fresh) throw new NotFound('It was deleted while you were editing it.');
    if (options.guard && !(await model.findOne({ where: { ...(options.guard.where as object), id: row.id } as WhereOptions }))) throw options.guard.refusal();
    if (attempt >= ATTEMPTS) throw new Conflict('Someone else is changing it right now. Save again in a moment.');
    row = fresh;
  }
}
