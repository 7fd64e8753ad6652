// Tells a listener which guild a write through the models touched, so caches of what the
// dashboard reads (services.readCache) forget that guild at once. Writes to rows of no guild
// (accounts, sessions) are not reported. Raw SQL (the XP and stats flushes) fires no hook: those
// writers say what they changed themselves, and the cache's short lifetime bounds the rest.
import type { Sequelize } from 'sequelize';

/** A written row, or a bulk write's options: where a guild id may be found. */
interface Written {
  guildId?: unknown;
  get?: (key: string) => unknown;
  dataValues?: Record<string, unknown>;
}

function guildOfRow(row: unknown): string | null | undefined {
  if (typeof row !== 'object' || row === null) return undefined;
  const written = row as Written;
  const value = written.dataValues ? written.dataValues.guildId : written.guildId;
  return typeof value === 'string' ? value : undefined;
}

/** Whether the model has a guildId column (its rows belong to a guild). */
function hasGuild(model: unknown): boolean {
  const attributes = (model as { getAttributes?: () => Record<string, unknown> } | undefined)?.getAttributes?.();
  return Boolean(attributes && 'guildId' in attributes);
}

/**
 * Calls `listener(guildId)` after every write through `sequelize`'s models to a
 * guild's rows; `listener(null)` when a bulk write on such rows names no single guild.
 */
export function onGuildWrite(sequelize: Sequelize, listener: (guildId: string | null) => void): void {
  const rowWritten = (row: unknown) => {
    const guildId = guildOfRow(row);
    if (guildId) listener(guildId);
    else if (guildId === undefined && hasGuild((row as { constructor?: unknown } | null)?.constructor)) listener(null);
  };
  const bulkWritten = (options: { model?: unknown; where?: unknown }) => {
    if (!hasGuild(options.model)) return;
    const where = options.where as { guildId?: unknown } | undefined;
    listener(typeof where?.guildId === 'string' ? where.guildId : null);
  };
  sequelize.addHook('afterCreate', rowWritten);
  sequelize.addHook('afterUpdate', rowWritten);
  sequelize.addHook('afterDestroy', rowWritten);
  sequelize.addHook('afterUpsert', (result: unknown) => rowWritten(Array.isArray(result) ? result[0] : result));
  sequelize.addHook('afterBulkCreate', (rows: readonly unknown[]) => {
    for (const guildId of new Set(rows.map(guildOfRow))) if (typeof guildId === 'string') listener(guildId);
  });
  sequelize.addHook('afterBulkUpdate', bulkWritten);
  sequelize.addHook('afterBulkDestroy', bulkWritten);
}
