import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** How often each slash command ran in a guild. */
export class CommandUsage extends Model<InferAttributes<CommandUsage>, InferCreationAttributes<CommandUsage>> {
  declare guildId: string;
  declare command: string;
  declare count: CreationOptional<number>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        guildId: { type: DataTypes.STRING(21), primaryKey: true },
        command: { type: DataTypes.STRING(32), primaryKey: true },
        count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      },
      { sequelize, tableName: 'command_usage', timestamps: false },
    );
  }
}

/** Per-guild counters for one UTC day (YYYY-MM-DD), for the dashboard's activity chart. */
export class GuildDailyStats extends Model<InferAttributes<GuildDailyStats>, InferCreationAttributes<GuildDailyStats>> {
  declare guildId: string;
  declare day: string;
  declare messages: CreationOptional<number>;
  declare joins: CreationOptional<number>;
  declare leaves: CreationOptional<number>;
  declare commands: CreationOptional<number>;
  /** XP members earned that day. */
  declare xp: CreationOptional<number>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    // A fresh object per attribute: Sequelize writes into attribute definitions.
    const counter = () => ({ type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
    this.init(
      {
        guildId: { type: DataTypes.STRING(21), primaryKey: true },
        day: { type: DataTypes.STRING(10), primaryKey: true },
        messages: counter(),
        joins: counter(),
        leaves: counter(),
        commands: counter(),
        xp: counter(),
      },
      { sequelize, tableName: 'guild_daily_stats', timestamps: false },
    );
  }
}
