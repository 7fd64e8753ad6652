import { DataTypes, type QueryInterface } from 'sequelize';

// The community features' own state: the welcomes the bot sent (Recent Welcome Messages, and
// "welcomed once, never twice" for joins it catches up on), per-guild bot state (the rules
// message it posted, when it last saw the guild), reaction roles with their mode and the
// assignments behind their stats, and announcements with a claim lease, a ping role and the
// statuses cancelled and missed.

const snowflake = () => ({ type: DataTypes.STRING(21), allowNull: false });
const optionalSnowflake = () => ({ type: DataTypes.STRING(21), allowNull: true });
const timeColumn = () => ({ type: DataTypes.DATE, allowNull: false });
const idColumn = () => ({ type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false });

/** Creates the tables and columns. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('welcome_log', {
    id: idColumn(),
    guildId: snowflake(),
    userId: snowflake(),
    username: { type: DataTypes.STRING(100), allowNull: false },
    source: { type: DataTypes.STRING(8), allowNull: false },
    channelId: optionalSnowflake(),
    messageId: optionalSnowflake(),
    status: { type: DataTypes.STRING(8), allowNull: false },
    error: { type: DataTypes.STRING(500), allowNull: true },
    dm: { type: DataTypes.STRING(8), allowNull: false },
    memberJoinedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: timeColumn(),
  });
  await qi.addIndex('welcome_log', { fields: ['guildId', { name: 'id', order: 'DESC' }], name: 'welcome_log_recent' });
  // One welcome per join: a join the bot saw live and the same join caught up on after a restart collide here.
  await qi.addIndex('welcome_log', { fields: ['guildId', 'userId', 'memberJoinedAt'], unique: true, name: 'welcome_log_once' });

  await qi.createTable('guild_state', {
    guildId: { ...snowflake(), primaryKey: true },
    key: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
    value: { type: DataTypes.JSON, allowNull: false },
    updatedAt: timeColumn(),
  });

  await qi.addColumn('reaction_roles', 'emojiId', optionalSnowflake());
  await qi.addColumn('reaction_roles', 'mode', { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'normal' });
  await qi.addColumn('reaction_roles', 'inactiveReason', { type: DataTypes.STRING(300), allowNull: true });
  await qi.addColumn('reaction_roles', 'createdBy', optionalSnowflake());
  await qi.addIndex('reaction_roles', { fields: ['guildId', 'messageId'], name: 'reaction_roles_message' });

  await qi.createTable('reaction_role_events', {
    id: idColumn(),
    guildId: snowflake(),
    reactionRoleId: { type: DataTypes.INTEGER, allowNull: true },
    messageId: snowflake(),
    userId: snowflake(),
    roleId: snowflake(),
    action: { type: DataTypes.STRING(8), allowNull: false },
    outcome: { type: DataTypes.STRING(8), allowNull: false },
    reason: { type: DataTypes.STRING(300), allowNull: true },
    createdAt: timeColumn(),
  });
  await qi.addIndex('reaction_role_events', { fields: ['guildId', 'createdAt'], name: 'reaction_role_events_recent' });

  await qi.sequelize.query('ALTER TABLE "announcements" RENAME COLUMN "leaseUntil" TO "claimedUntil"');
  await qi.addColumn('announcements', 'mentionRoleId', optionalSnowflake());
  await qi.addColumn('announcements', 'createdByName', { type: DataTypes.STRING(100), allowNull: true });
  await qi.addColumn('announcements', 'late', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await qi.addColumn('announcements', 'attempts', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const column of ['attempts', 'late', 'createdByName', 'mentionRoleId']) await qi.removeColumn('announcements', column);
  await qi.sequelize.query('ALTER TABLE "announcements" RENAME COLUMN "claimedUntil" TO "leaseUntil"');
  await qi.dropTable('reaction_role_events');
  await qi.removeIndex('reaction_roles', 'reaction_roles_message');
  for (const column of ['createdBy', 'inactiveReason', 'mode', 'emojiId']) await qi.removeColumn('reaction_roles', column);
  await qi.dropTable('guild_state');
  await qi.dropTable('welcome_log');
}
