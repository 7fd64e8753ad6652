import { DataTypes, type QueryInterface } from 'sequelize';

// Moderation cases and reports: each case gets a number per guild, where it came from (dashboard,
// command, Discord's own UI, automatic), the moderator's name, the duration and when it ends (a
// temporary ban is lifted by whichever process claims it first, with a lease), whether the member
// was told by DM, and the audit-log entry a native action came from (so it is recorded once).
// Reports keep the reporter, the target, the message's link and text, and what became of them.

const snowflake = () => ({ type: DataTypes.STRING(21), allowNull: false });
const optionalSnowflake = () => ({ type: DataTypes.STRING(21), allowNull: true });
const optionalTime = () => ({ type: DataTypes.DATE, allowNull: true });

/** Adds the columns and the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('moderation_logs', 'caseNumber', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  // Cases logged before numbering get their row id: unique within their guild.
  await qi.sequelize.query('UPDATE moderation_logs SET "caseNumber" = id');
  await qi.addColumn('moderation_logs', 'source', { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'dashboard' });
  await qi.addColumn('moderation_logs', 'moderatorName', { type: DataTypes.STRING(100), allowNull: true });
  await qi.addColumn('moderation_logs', 'targetName', { type: DataTypes.STRING(100), allowNull: true });
  await qi.addColumn('moderation_logs', 'duration', { type: DataTypes.STRING(4), allowNull: true });
  await qi.addColumn('moderation_logs', 'expiresAt', optionalTime());
  await qi.addColumn('moderation_logs', 'liftedAt', optionalTime());
  await qi.addColumn('moderation_logs', 'claimedUntil', optionalTime());
  await qi.addColumn('moderation_logs', 'dmDelivered', { type: DataTypes.BOOLEAN, allowNull: true });
  await qi.addColumn('moderation_logs', 'auditEntryId', optionalSnowflake());
  await qi.addIndex('moderation_logs', { fields: ['guildId', 'caseNumber'], unique: true, name: 'moderation_logs_case' });
  await qi.addIndex('moderation_logs', { fields: ['guildId', 'targetId', 'action'], name: 'moderation_logs_target' });
  await qi.addIndex('moderation_logs', { fields: ['action', 'expiresAt'], name: 'moderation_logs_expiry' });
  await qi.addIndex('moderation_logs', { fields: ['guildId', 'auditEntryId'], unique: true, name: 'moderation_logs_audit_entry' });

  await qi.createTable('moderation_reports', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    reporterId: snowflake(),
    reporterName: { type: DataTypes.STRING(100), allowNull: true },
    targetId: snowflake(),
    targetName: { type: DataTypes.STRING(100), allowNull: true },
    reason: { type: DataTypes.TEXT, allowNull: false },
    channelId: optionalSnowflake(),
    messageId: optionalSnowflake(),
    content: { type: DataTypes.TEXT, allowNull: true },
    status: { type: DataTypes.STRING(12), allowNull: false, defaultValue: 'open' },
    caseId: { type: DataTypes.INTEGER, allowNull: true },
    resolvedById: optionalSnowflake(),
    resolvedAt: optionalTime(),
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('moderation_reports', { fields: ['guildId', 'status', { name: 'id', order: 'DESC' }], name: 'moderation_reports_recent' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('moderation_reports');
  for (const index of ['moderation_logs_case', 'moderation_logs_target', 'moderation_logs_expiry', 'moderation_logs_audit_entry'])
    await qi.removeIndex('moderation_logs', index);
  for (const column of [
    'caseNumber',
    'source',
    'moderatorName',
    'targetName',
    'duration',
    'expiresAt',
    'liftedAt',
    'claimedUntil',
    'dmDelivered',
    'auditEntryId',
  ]) {
    await qi.removeColumn('moderation_logs', column);
  }
}
