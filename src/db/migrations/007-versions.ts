import { DataTypes, type QueryInterface } from 'sequelize';

// Versions of what people edit, so a save based on an outdated page is recognised (issue 20): a
// version per shop item, reaction role and announcement, counted by edits only (a purchase or a
// send does not move it), and the revisions that moved it (who, when, each field from -> to), so
// the person can be told what changed meanwhile. A settings history entry records the version of
// the guild's settings it produced.

const TABLES = ['shop_items', 'reaction_roles', 'announcements'] as const;

/** Adds the columns and the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const table of TABLES) await qi.addColumn(table, 'version', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  await qi.addColumn('settings_history', 'version', { type: DataTypes.INTEGER, allowNull: true });
  await qi.addIndex('settings_history', { fields: ['guildId', 'version'], name: 'settings_history_version' });
  await qi.createTable('revisions', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    entity: { type: DataTypes.STRING(32), allowNull: false },
    entityId: { type: DataTypes.INTEGER, allowNull: false },
    version: { type: DataTypes.INTEGER, allowNull: false },
    actorId: { type: DataTypes.STRING(21), allowNull: true },
    actorName: { type: DataTypes.STRING(100), allowNull: true },
    changes: { type: DataTypes.JSON, allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('revisions', { fields: ['guildId', 'entity', 'entityId', 'version'], unique: true, name: 'revisions_entity_version' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('revisions');
  await qi.removeIndex('settings_history', 'settings_history_version');
  await qi.removeColumn('settings_history', 'version');
  for (const table of TABLES) await qi.removeColumn(table, 'version');
}
