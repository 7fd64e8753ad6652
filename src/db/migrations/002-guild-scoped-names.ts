import { DataTypes, type QueryInterface } from 'sequelize';

// One name per thing: Discord's ids are guildId and userId everywhere, our own account row is
// accountId. Settings get one home (a JSON document per guild, with a history); dashboard access
// can be granted; the bot-wide settings and webhook deliveries get tables. The per-guild feature
// tables are still empty when this runs (no feature writes them yet), so renaming is safe.

/** Tables whose guild column was called serverId. */
const GUILD_TABLES = [
  'user_currency',
  'user_levels',
  'shop_items',
  'transactions',
  'reaction_roles',
  'user_inventory',
  'moderation_logs',
  'announcements',
  'command_usage',
  'guild_daily_stats',
  'member_activity',
];

const timeColumn = () => ({ type: DataTypes.DATE, allowNull: false });
const snowflake = () => ({ type: DataTypes.STRING(21), allowNull: false });

/** ALTER TABLE ... RENAME COLUMN: the same statement on SQLite (3.25+) and PostgreSQL, and indexes follow. */
async function renameColumn(qi: QueryInterface, table: string, from: string, to: string): Promise<void> {
  await qi.sequelize.query(`ALTER TABLE "${table}" RENAME COLUMN "${from}" TO "${to}"`);
}

/** Applies the renames and creates the new tables. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const table of GUILD_TABLES) await renameColumn(qi, table, 'serverId', 'guildId');
  await qi.renameTable('users', 'accounts');
  await renameColumn(qi, 'accounts', 'discordId', 'userId');
  await renameColumn(qi, 'sessions', 'userId', 'accountId');
  await qi.dropTable('server_settings');
  await qi.dropTable('servers');

  await qi.createTable('guild_settings', {
    guildId: { ...snowflake(), primaryKey: true },
    data: { type: DataTypes.JSON, allowNull: false },
    version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    updatedAt: timeColumn(),
  });

  await qi.createTable('settings_history', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    actorId: { type: DataTypes.STRING(21), allowNull: true },
    actorName: { type: DataTypes.STRING(100), allowNull: true },
    kind: { type: DataTypes.STRING(16), allowNull: false },
    summary: { type: DataTypes.STRING(300), allowNull: false },
    changes: { type: DataTypes.JSON, allowNull: false },
    snapshot: { type: DataTypes.JSON, allowNull: true },
    createdAt: timeColumn(),
  });
  await qi.addIndex('settings_history', { fields: ['guildId', { name: 'id', order: 'DESC' }], name: 'settings_history_recent' });

  await qi.createTable('dashboard_grants', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    subjectType: { type: DataTypes.STRING(8), allowNull: false },
    subjectId: snowflake(),
    level: { type: DataTypes.STRING(8), allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: true },
    createdBy: snowflake(),
    createdAt: timeColumn(),
  });
  await qi.addIndex('dashboard_grants', { fields: ['guildId', 'subjectType', 'subjectId'], unique: true, name: 'dashboard_grants_subject' });

  await qi.createTable('app_settings', {
    key: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
    value: { type: DataTypes.JSON, allowNull: false },
    updatedAt: timeColumn(),
  });

  await qi.createTable('webhook_deliveries', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    event: { type: DataTypes.STRING(32), allowNull: false },
    target: { type: DataTypes.STRING(300), allowNull: false },
    status: { type: DataTypes.STRING(16), allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    responseStatus: { type: DataTypes.INTEGER, allowNull: true },
    error: { type: DataTypes.STRING(500), allowNull: true },
    createdAt: timeColumn(),
    updatedAt: timeColumn(),
  });
  await qi.addIndex('webhook_deliveries', { fields: ['guildId', { name: 'id', order: 'DESC' }], name: 'webhook_deliveries_recent' });
}

/** Reverses up(); the dropped settings tables come back, empty, as 001 made them. */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const table of ['webhook_deliveries', 'app_settings', 'dashboard_grants', 'settings_history', 'guild_settings']) await qi.dropTable(table);
  await qi.createTable('servers', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    discordId: { ...snowflake(), unique: true },
    name: { type: DataTypes.STRING(100), allowNull: false },
    icon: { type: DataTypes.STRING(100), allowNull: true },
    ownerId: { type: DataTypes.STRING(21), allowNull: true },
    botEnabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    settings: { type: DataTypes.JSON, allowNull: false },
    createdAt: timeColumn(),
    updatedAt: timeColumn(),
  });
  const flag = (value: boolean) => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue: value });
  const int = (value: number) => ({ type: DataTypes.INTEGER, allowNull: false, defaultValue: value });
  const float = (value: number) => ({ type: DataTypes.FLOAT, allowNull: false, defaultValue: value });
  const optional = () => ({ type: DataTypes.STRING(21), allowNull: true });
  await qi.createTable('server_settings', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    serverId: { ...snowflake(), unique: true },
    welcomeEnabled: flag(false),
    welcomeChannelId: optional(),
    welcomeMessage: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'Welcome {user} to our server! 🎉' },
    rulesChannelId: optional(),
    rulesMessage: { type: DataTypes.TEXT, allowNull: true },
    verificationRoleId: optional(),
    verificationEnabled: flag(false),
    levelingEnabled: flag(true),
    economyEnabled: flag(true),
    currencyName: { type: DataTypes.STRING(32), allowNull: false, defaultValue: 'coins' },
    baseReward: int(10),
    levelUpBonus: int(100),
    xpCooldown: int(60),
    levelUpAnnouncements: flag(true),
    textMultiplier: float(1),
    voiceMultiplier: float(0.5),
    weekendMultiplier: float(1.5),
    boostMultiplier: float(2),
    updatedAt: timeColumn(),
  });
  await renameColumn(qi, 'sessions', 'accountId', 'userId');
  await renameColumn(qi, 'accounts', 'userId', 'discordId');
  await qi.renameTable('accounts', 'users');
  for (const table of GUILD_TABLES) await renameColumn(qi, table, 'guildId', 'serverId');
}
