import { DataTypes, type QueryInterface } from 'sequelize';

// Cases as living records (issue 24, point 1): a warning pardoned stops counting toward the warning
// ladder (when, and the number of the pardon's own case), and a case keeps a short history of its
// edits (who changed the reason or the duration, when, from what to what).

/** Adds the columns. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('moderation_logs', 'pardonedAt', { type: DataTypes.DATE, allowNull: true });
  await qi.addColumn('moderation_logs', 'pardonCaseNumber', { type: DataTypes.INTEGER, allowNull: true });
  await qi.addColumn('moderation_logs', 'edits', { type: DataTypes.JSON, allowNull: true });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const column of ['pardonedAt', 'pardonCaseNumber', 'edits']) await qi.removeColumn('moderation_logs', column);
}
