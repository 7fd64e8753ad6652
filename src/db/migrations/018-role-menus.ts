import { DataTypes, type QueryInterface } from 'sequelize';

// Role menus (issue 25, point 7): a message of buttons or one select menu the bot posts and edits
// in place, handing out roles in a mode (normal, unique, verify, drop, reversed, binding), at most maxRoles of them,
// to members holding requiredRoleId when set. The options (role, label, emoji, description) are a
// JSON list: at most 25, always read and written with their menu.

/** Adds the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('role_menus', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    channelId: { type: DataTypes.STRING(21), allowNull: false },
    messageId: { type: DataTypes.STRING(21), allowNull: true },
    title: { type: DataTypes.STRING(256), allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: true },
    colour: { type: DataTypes.STRING(7), allowNull: false },
    style: { type: DataTypes.STRING(10), allowNull: false },
    mode: { type: DataTypes.STRING(10), allowNull: false },
    maxRoles: { type: DataTypes.INTEGER, allowNull: true },
    requiredRoleId: { type: DataTypes.STRING(21), allowNull: true },
    options: { type: DataTypes.TEXT, allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('role_menus', { fields: ['guildId', 'id'], name: 'role_menus_guild' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('role_menus');
}
