import { DataTypes, type QueryInterface } from 'sequelize';

// The ids of committed XP/coin flushes. A flush writes its id in the same transaction as its rows,
// so when a COMMIT's outcome is unknown (the connection dropped mid-commit) the retry can ask
// whether it landed instead of writing the batch twice. Rows older than a day are pruned.

/** Adds the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('accrual_flushes', {
    id: { type: DataTypes.STRING(36), primaryKey: true, allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('accrual_flushes', { fields: ['createdAt'], name: 'accrual_flushes_created' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('accrual_flushes');
}
