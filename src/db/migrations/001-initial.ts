import { DataTypes, type QueryInterface } from 'sequelize';

// Column helpers return fresh objects: Sequelize writes into attribute definitions.
// The first schema: every entity of the spec's section 3, plus sessions, announcements and the
// counters behind the dashboard's stats. Frozen: later changes go in new migrations.

const idColumn = () => ({ type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false });
const snowflakeColumn = () => ({ type: DataTypes.STRING(21), allowNull: false });
const optionalSnowflakeColumn = () => ({ type: DataTypes.STRING(21), allowNull: true });
const counterColumn = () => ({ type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
const flag = (value: boolean) => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue: value });
const float = (value: number) => ({ type: DataTypes.FLOAT, allowNull: false, defaultValue: value });
const timeColumn = () => ({ type: DataTypes.DATE, allowNull: false });
const desc = (name: string) => ({ name, order: 'DESC' as const });

/** Adds an index over `fields` (a descending column as desc('name')). */
function addIndex(
  qi: QueryInterface,
  table: string,
  fields: (string | { name: string; order: 'DESC' })[],
  options: { name?: string; unique?: boolean } = {},
): Promise<void> {
  return qi.addIndex(table, { fields, ...options });
}

/** Creates every table and the indexes of the hot reads. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('users', {
    id: idColumn(),
    discordId: { ...snowflakeColumn(), unique: true },
    username: { type: DataTypes.STRING(100), allowNull: false },
    discriminator: { type: DataTypes.STRING(4), allowNull: false, defaultValue: '0' },
    avatar: { type: DataTypes.STRING(100), allowNull: true },
    accessToken: { type: DataTypes.TEXT, allowNull: true },
    refreshToken: { type: DataTypes.TEXT, allowNull: true },
    tokenExpiresAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: timeColumn(),
    updatedAt: timeColumn(),
  });

  await qi.createTable('sessions', {
    id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
    data: { type: DataTypes.JSON, allowNull: false },
    userId: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    expiresAt: timeColumn(),
  });
  await addIndex(qi, 'sessions', ['expiresAt']);
  await addIndex(qi, 'sessions', ['userId']);

  await qi.createTable('servers', {
    id: idColumn(),
    discordId: { ...snowflakeColumn(), unique: true },
    name: { type: DataTypes.STRING(100), allowNull: false },
    icon: { type: DataTypes.STRING(100), allowNull: true },
    ownerId: optionalSnowflakeColumn(),
    botEnabled: flag(true),
    settings: { type: DataTypes.JSON, allowNull: false },
    createdAt: timeColumn(),
    updatedAt: timeColumn(),
  });

  await qi.createTable('server_settings', {
    id: idColumn(),
    serverId: { ...snowflakeColumn(), unique: true },
    welcomeEnabled: flag(false),
    welcomeChannelId: optionalSnowflakeColumn(),
    welcomeMessage: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'Welcome {user} to our server! 🎉' },
    rulesChannelId: optionalSnowflakeColumn(),
    rulesMessage: { type: DataTypes.TEXT, allowNull: true },
    verificationRoleId: optionalSnowflakeColumn(),
    verificationEnabled: flag(false),
    levelingEnabled: flag(true),
    economyEnabled: flag(true),
    currencyName: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'coins' },
    baseReward: { ...counterColumn(), defaultValue: 10 },
    levelUpBonus: { ...counterColumn(), defaultValue: 100 },
    xpCooldown: { ...counterColumn(), defaultValue: 60 },
    levelUpAnnouncements: flag(true),
    textMultiplier: float(1),
    voiceMultiplier: float(0.5),
    weekendMultiplier: float(1.5),
    boostMultiplier: float(2),
    updatedAt: timeColumn(),
  });

  await qi.createTable('user_currency', {
    id: idColumn(),
    userId: snowflakeColumn(),
    serverId: snowflakeColumn(),
    balance: counterColumn(),
    totalEarned: counterColumn(),
    updatedAt: timeColumn(),
  });
  await addIndex(qi, 'user_currency', ['serverId', 'userId'], { unique: true });
  await addIndex(qi, 'user_currency', ['serverId', desc('balance')]);

  await qi.createTable('user_levels', {
    id: idColumn(),
    userId: snowflakeColumn(),
    serverId: snowflakeColumn(),
    level: { ...counterColumn(), defaultValue: 1 },
    xp: counterColumn(),
    totalXp: counterColumn(),
    messagesCount: counterColumn(),
    updatedAt: timeColumn(),
  });
  await addIndex(qi, 'user_levels', ['serverId', 'userId'], { unique: true });
  await addIndex(qi, 'user_levels', ['serverId', desc('totalXp')], { name: 'user_levels_leaderboard' });

  await qi.createTable('shop_items', {
    id: idColumn(),
    serverId: snowflakeColumn(),
    name: { type: DataTypes.STRING(100), allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: true },
    price: { type: DataTypes.INTEGER, allowNull: false },
    type: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'role' },
    roleId: optionalSnowflakeColumn(),
    icon: { type: DataTypes.STRING(200), allowNull: true },
    isActive: flag(true),
    purchaseCount: counterColumn(),
    createdAt: timeColumn(),
    updatedAt: timeColumn(),
  });
  await addIndex(qi, 'shop_items', ['serverId']);

  await qi.createTable('transactions', {
    id: idColumn(),
    userId: snowflakeColumn(),
    serverId: snowflakeColumn(),
    type: { type: DataTypes.STRING(16), allowNull: false },
    amount: { type: DataTypes.INTEGER, allowNull: false },
    itemId: { type: DataTypes.INTEGER, allowNull: true },
    itemName: { type: DataTypes.STRING(100), allowNull: true },
    description: { type: DataTypes.TEXT, allowNull: true },
    createdAt: timeColumn(),
  });
  await addIndex(qi, 'transactions', ['serverId', desc('createdAt')], { name: 'transactions_recent' });
  await addIndex(qi, 'transactions', ['serverId', 'userId', desc('createdAt')], { name: 'transactions_member' });

  await qi.createTable('reaction_roles', {
    id: idColumn(),
    serverId: snowflakeColumn(),
    messageId: snowflakeColumn(),
    channelId: snowflakeColumn(),
    emoji: { type: DataTypes.STRING(100), allowNull: false },
    roleId: snowflakeColumn(),
    roleName: { type: DataTypes.STRING(100), allowNull: true },
    isActive: flag(true),
    createdAt: timeColumn(),
  });
  await addIndex(qi, 'reaction_roles', ['messageId', 'emoji'], { unique: true });
  await addIndex(qi, 'reaction_roles', ['serverId']);

  await qi.createTable('user_inventory', {
    id: idColumn(),
    userId: snowflakeColumn(),
    serverId: snowflakeColumn(),
    itemId: { type: DataTypes.INTEGER, allowNull: true },
    itemName: { type: DataTypes.STRING(100), allowNull: false },
    itemType: { type: DataTypes.STRING(16), allowNull: false },
    quantity: { ...counterColumn(), defaultValue: 1 },
    acquiredAt: timeColumn(),
  });
  await addIndex(qi, 'user_inventory', ['serverId', 'userId']);

  await qi.createTable('moderation_logs', {
    id: idColumn(),
    serverId: snowflakeColumn(),
    moderatorId: snowflakeColumn(),
    targetId: snowflakeColumn(),
    action: { type: DataTypes.STRING(16), allowNull: false },
    reason: { type: DataTypes.TEXT, allowNull: true },
    details: { type: DataTypes.JSON, allowNull: true },
    createdAt: timeColumn(),
  });
  await addIndex(qi, 'moderation_logs', ['serverId', desc('createdAt')], { name: 'moderation_logs_recent' });

  await qi.createTable('announcements', {
    id: idColumn(),
    serverId: snowflakeColumn(),
    channelId: snowflakeColumn(),
    title: { type: DataTypes.STRING(256), allowNull: false },
    message: { type: DataTypes.TEXT, allowNull: false },
    priority: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'normal' },
    scheduleTime: { type: DataTypes.DATE, allowNull: true },
    status: { type: DataTypes.STRING(16), allowNull: false },
    sentAt: { type: DataTypes.DATE, allowNull: true },
    messageId: optionalSnowflakeColumn(),
    error: { type: DataTypes.TEXT, allowNull: true },
    createdById: optionalSnowflakeColumn(),
    leaseUntil: { type: DataTypes.DATE, allowNull: true },
    createdAt: timeColumn(),
    updatedAt: timeColumn(),
  });
  await addIndex(qi, 'announcements', ['serverId', desc('createdAt')], { name: 'announcements_recent' });
  await addIndex(qi, 'announcements', ['status', 'scheduleTime'], { name: 'announcements_due' });

  await qi.createTable('command_usage', {
    serverId: { ...snowflakeColumn(), primaryKey: true },
    command: { type: DataTypes.STRING(32), allowNull: false, primaryKey: true },
    count: counterColumn(),
  });

  await qi.createTable('guild_daily_stats', {
    serverId: { ...snowflakeColumn(), primaryKey: true },
    day: { type: DataTypes.STRING(10), allowNull: false, primaryKey: true },
    messages: counterColumn(),
    joins: counterColumn(),
    leaves: counterColumn(),
    commands: counterColumn(),
  });

  await qi.createTable('member_activity', {
    serverId: { ...snowflakeColumn(), primaryKey: true },
    userId: { ...snowflakeColumn(), primaryKey: true },
    lastMessageAt: timeColumn(),
  });
  await addIndex(qi, 'member_activity', ['serverId', 'lastMessageAt']);
}

/** Drops everything the migration created. */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const table of [
    'member_activity',
    'guild_daily_stats',
    'command_usage',
    'announcements',
    'moderation_logs',
    'user_inventory',
    'reaction_roles',
    'transactions',
    'shop_items',
    'user_levels',
    'user_currency',
    'server_settings',
    'servers',
    'sessions',
    'users',
  ]) {
    await qi.dropTable(table);
  }
}
