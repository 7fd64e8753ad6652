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

/** A model's table name, when it is a model. */
function tableOf(model: unknown): string | undefined {
  return (model as { getTableName?: () => unknown } | undefined)?.getTableName?.() as string | undefined;
}

/** What Sequelize passes a hook as its options: the transaction a write ran in, if any. */
interface HookOptions {
  model?: unknown;
  where?: unknown;
  transaction?: { afterCommit(run: () => void): void } | null;
}

/** The hook events onGuildCommit listens to, each with how its arguments name the row and the options. */
const COMMIT_EVENTS = ['afterCreate', 'afterUpdate', 'afterDestroy', 'afterUpsert', 'afterBulkCreate', 'afterBulkUpdate', 'afterBulkDestroy'] as const;

/**
 * Calls `listener(guildId, table)` once a write through `sequelize`'s models to a guild's rows is
 * committed (at once for a write outside a transaction): a reader told of it then sees it. Bulk
 * writes that name no single guild are not reported. Returns a function that removes the hooks.
 */
export function onGuildCommit(sequelize: Sequelize, listener: (guildId: string, table: string) => void): () => void {
  const name = `guild-commit-${Math.random().toString(36).slice(2)}`;
  const report = (guildIds: Iterable<unknown>, model: unknown, options: HookOptions | undefined) => {
    const table = tableOf(model);
    if (!table) return;
    const ids = [...new Set(guildIds)].filter((id): id is string => typeof id === 'string');
    if (ids.length === 0) return;
    const tell = () => {
      for (const guildId of ids) listener(guildId, table);
    };
    if (options?.transaction) options.transaction.afterCommit(tell);
    else tell();
  };
  const hooks: Record<(typeof COMMIT_EVENTS)[number], (...args: unknown[]) => void> = {
    afterCreate: (row, options) => report([guildOfRow(row)], (row as { constructor?: unknown }).constructor, options as HookOptions),
    afterUpdate: (row, options) => report([guildOfRow(row)], (row as { constructor?: unknown }).constructor, options as HookOptions),
    afterDestroy: (row, options) => report([guildOfRow(row)], (row as { constructor?: unknown }).constructor, options as HookOptions),
    afterUpsert: (result, options) => {
      const row = Array.isArray(result) ? (result[0] as unknown) : result;
      report([guildOfRow(row)], (row as { constructor?: unknown } | null)?.constructor, options as HookOptions);
    },
    afterBulkCreate: (rows, options) => {
      const list = rows as readonly unknown[];
      report(list.map(guildOfRow), (list[0] as { constructor?: unknown } | undefined)?.constructor, options as HookOptions);
    },
    afterBulkUpdate: (options) => {
      const bulk = options as HookOptions;
      report([(bulk.where as { guildId?: unknown } | undefined)?.guildId], bulk.model, bulk);
    },
    afterBulkDestroy: (options) => {
      const bulk = options as HookOptions;
      report([(bulk.where as { guildId?: unknown } | undefined)?.guildId], bulk.model, bulk);
    },
  };
  for (const event of COMMIT_EVENTS) sequelize.addHook(event, name, hooks[event]);
  return () => {
    for (const event of COMMIT_EVENTS) sequelize.removeHook(event, name);
  };
}
