import { DataTypes, type QueryInterface } from 'sequelize';

// Leveling resets with undo and admin XP adjustments (issue 25, points 1 and 2): a backup of the
// members' level rows a reset, a restore or an import replaces (a JSON snapshot, kept 7 days, pruned
// on the product clock), and the history of XP given or taken by admins (who, when, how much, why).

/** Adds the tables. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('level_backups', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    kind: { type: DataTypes.STRING(12), allowNull: false },
    userId: { type: DataTypes.STRING(21), allowNull: true },
    summary: { type: DataTypes.STRING(200), allowNull: false },
    memberCount: { type: DataTypes.INTEGER, allowNull: false },
    snapshot: { type: DataTypes.TEXT, allowNull: false },
    actorId: { type: DataTypes.STRING(21), allowNull: true },
    actorName: { type: DataTypes.STRING(100), allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    restoredAt: { type: DataTypes.DATE, allowNull: true },
    restoredByName: { type: DataTypes.STRING(100), allowNull: true },
  });
  await qi.addIndex('level_backups', { fields: ['guildId', { name: 'id', order: 'DESC' }], name: 'level_backups_recent' });
  await qi.addIndex('level_backups', { fields: ['expiresAt'], name: 'level_backups_expiry' });
  await qi.createTable('xp_adjustments', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    userId: { type: DataTypes.STRING(21), allowNull: false },
    username: { type: DataTypes.STRING(100), allowNull: true },
    amount: { type: DataTypes.INTEGER, allowNull: false },
    reason: { type: DataTypes.STRING(200), allowNull: false },
    fromXp: { type: DataTypes.INTEGER, allowNull: false },
    toXp: { type: DataTypes.INTEGER, allowNull: false },
    actorId: { type: DataTypes.STRING(21), allowNull: true },
    actorName: { type: DataTypes.STRING(100), allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('xp_adjustments', { fields: ['guildId', { name: 'id', order: 'DESC' }], name: 'xp_adjustments_recent' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('xp_adjustments');
  await qi.dropTable('level_backups');
}
