import { DataTypes, type QueryInterface } from 'sequelize';

// Leveling and the economy: names kept beside the numbers (the leaderboard and the top earner show
// members who are not in the bot's cache), the daily reward's last claim, who moved coins (an
// admin, the other side of a give), shop stock and per-member limits, role rewards at levels, one
// inventory row per item per member, and XP earned per day for the leveling chart.

const optionalSnowflake = () => ({ type: DataTypes.STRING(21), allowNull: true });

/** Adds the columns, tables and indexes. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('user_levels', 'username', { type: DataTypes.STRING(100), allowNull: true });
  await qi.addColumn('user_currency', 'username', { type: DataTypes.STRING(100), allowNull: true });
  await qi.addColumn('user_currency', 'lastDailyAt', { type: DataTypes.DATE, allowNull: true });
  await qi.addColumn('transactions', 'actorId', optionalSnowflake());
  await qi.addColumn('transactions', 'counterpartyId', optionalSnowflake());
  await qi.addIndex('transactions', { fields: ['guildId', 'type', { name: 'createdAt', order: 'DESC' }], name: 'transactions_type' });
  await qi.addColumn('shop_items', 'stock', { type: DataTypes.INTEGER, allowNull: true });
  await qi.addColumn('shop_items', 'perMemberLimit', { type: DataTypes.INTEGER, allowNull: true });
  await qi.addColumn('guild_daily_stats', 'xp', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  await qi.addIndex('user_inventory', { fields: ['guildId', 'userId', 'itemId'], unique: true, name: 'user_inventory_item' });
  await qi.addIndex('user_currency', { fields: ['guildId', { name: 'totalEarned', order: 'DESC' }], name: 'user_currency_earners' });

  await qi.createTable('level_rewards', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    level: { type: DataTypes.INTEGER, allowNull: false },
    roleId: { type: DataTypes.STRING(21), allowNull: false },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('level_rewards', { fields: ['guildId', 'level', 'roleId'], unique: true, name: 'level_rewards_unique' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('level_rewards');
  await qi.removeIndex('user_currency', 'user_currency_earners');
  await qi.removeIndex('user_inventory', 'user_inventory_item');
  await qi.removeColumn('guild_daily_stats', 'xp');
  for (const column of ['perMemberLimit', 'stock']) await qi.removeColumn('shop_items', column);
  await qi.removeIndex('transactions', 'transactions_type');
  for (const column of ['counterpartyId', 'actorId']) await qi.removeColumn('transactions', column);
  for (const column of ['lastDailyAt', 'username']) await qi.removeColumn('user_currency', column);
  await qi.removeColumn('user_levels', 'username');
}
