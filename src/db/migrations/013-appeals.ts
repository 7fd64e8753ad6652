import { DataTypes, type QueryInterface } from 'sequelize';

// Ban appeals (issue 24, point 6): a banned member's appeal of a ban case and the moderators'
// decision (who, why, the unban case an acceptance took, whether the member was told by DM). One
// open appeal per case: a unique index over the guild and case of the open rows only (a partial
// index, on SQLite and PostgreSQL alike), so a decided appeal leaves room for a later one.

/** Adds the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('moderation_appeals', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    caseNumber: { type: DataTypes.INTEGER, allowNull: false },
    userId: { type: DataTypes.STRING(21), allowNull: false },
    userName: { type: DataTypes.STRING(100), allowNull: true },
    text: { type: DataTypes.TEXT, allowNull: false },
    status: { type: DataTypes.STRING(12), allowNull: false, defaultValue: 'open' },
    decidedById: { type: DataTypes.STRING(21), allowNull: true },
    decidedByName: { type: DataTypes.STRING(100), allowNull: true },
    decisionReason: { type: DataTypes.TEXT, allowNull: true },
    unbanCaseNumber: { type: DataTypes.INTEGER, allowNull: true },
    dmDelivered: { type: DataTypes.BOOLEAN, allowNull: true },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    decidedAt: { type: DataTypes.DATE, allowNull: true },
  });
  await qi.addIndex('moderation_appeals', { fields: ['guildId', 'caseNumber'], unique: true, where: { status: 'open' }, name: 'moderation_appeals_open' });
  await qi.addIndex('moderation_appeals', { fields: ['guildId', 'status', { name: 'id', order: 'DESC' }], name: 'moderation_appeals_recent' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('moderation_appeals');
}
