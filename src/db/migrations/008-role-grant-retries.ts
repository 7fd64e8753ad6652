import { DataTypes, type QueryInterface } from 'sequelize';

// Role grants and removals the bot could not finish when it tried: Discord did not answer (queued
// with a retry schedule, claimed by one process at a time with a lease) or refused (kept as failed
// with the sentence, for the dashboard). At most one open (pending or failed) row per member and
// role: a partial unique index, so the same grant is never queued twice, even by two processes.

const snowflake = () => ({ type: DataTypes.STRING(21), allowNull: false });
const optionalTime = () => ({ type: DataTypes.DATE, allowNull: true });

/** Adds the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('role_grant_retries', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    userId: snowflake(),
    memberName: { type: DataTypes.STRING(100), allowNull: true },
    roleId: snowflake(),
    roleName: { type: DataTypes.STRING(100), allowNull: true },
    action: { type: DataTypes.STRING(8), allowNull: false },
    source: { type: DataTypes.STRING(16), allowNull: false },
    sourceId: { type: DataTypes.INTEGER, allowNull: true },
    reason: { type: DataTypes.STRING(300), allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    nextAttemptAt: optionalTime(),
    lastError: { type: DataTypes.STRING(500), allowNull: true },
    status: { type: DataTypes.STRING(8), allowNull: false },
    claimedUntil: optionalTime(),
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('role_grant_retries', {
    fields: ['guildId', 'userId', 'roleId'],
    unique: true,
    where: { status: ['pending', 'failed'] },
    name: 'role_grant_retries_open',
  });
  await qi.addIndex('role_grant_retries', { fields: ['status', 'nextAttemptAt'], name: 'role_grant_retries_due' });
  await qi.addIndex('role_grant_retries', { fields: ['guildId', 'status', { name: 'id', order: 'DESC' }], name: 'role_grant_retries_guild' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('role_grant_retries');
}
