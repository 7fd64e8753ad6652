import { attributesOf } from '../columns';
import { COMMAND_USAGE, GUILD_DAILY_STATS } from '../tables';
import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** How often each slash command ran in a guild. */
export class CommandUsage extends Model<InferAttributes<CommandUsage>, InferCreationAttributes<CommandUsage>> {
  declare guildId: string;
  declare command: string;
  declare count: CreationOptional<number>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(attributesOf(COMMAND_USAGE), { sequelize, tableName: COMMAND_USAGE.name, timestamps: false });
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
    this.init(attributesOf(GUILD_DAILY_STATS), { sequelize, tableName: GUILD_DAILY_STATS.name, timestamps: false });
  }
}
