import { attributesOf } from '../columns';
import { USER_CURRENCY, USER_LEVELS, MEMBER_ACTIVITY } from '../tables';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

// Per-member rows. `userId` is the member's Discord id and `guildId` the guild's Discord id:
// members who never open the dashboard still earn XP and coins.

/** A member's wallet in one guild. */
export class UserCurrency extends Model<InferAttributes<UserCurrency>, InferCreationAttributes<UserCurrency>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare guildId: string;
  declare balance: CreationOptional<number>;
  declare totalEarned: CreationOptional<number>;
  /** The member's name when they last earned or spent (the top earner is shown by it). */
  declare username: string | null;
  /** When the member last claimed /daily. */
  declare lastDailyAt: Date | null;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(attributesOf(USER_CURRENCY), { sequelize, tableName: USER_CURRENCY.name, createdAt: false });
  }
}

/** A member's XP and level in one guild. */
export class UserLevel extends Model<InferAttributes<UserLevel>, InferCreationAttributes<UserLevel>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare guildId: string;
  declare level: CreationOptional<number>;
  declare xp: CreationOptional<number>;
  declare totalXp: CreationOptional<number>;
  declare messagesCount: CreationOptional<number>;
  /** The member's name when they last posted (the leaderboard shows it). */
  declare username: string | null;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(attributesOf(USER_LEVELS), { sequelize, tableName: USER_LEVELS.name, createdAt: false });
  }
}

/** An item a member owns in one guild. */
export class UserInventory extends Model<InferAttributes<UserInventory>, InferCreationAttributes<UserInventory>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare guildId: string;
  declare itemId: number | null;
  declare itemName: string;
  declare itemType: string;
  declare quantity: CreationOptional<number>;
  declare acquiredAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        itemId: { type: DataTypes.INTEGER, allowNull: true },
        itemName: { type: DataTypes.STRING(100), allowNull: false },
        itemType: { type: DataTypes.STRING(16), allowNull: false },
        quantity: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
        acquiredAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'user_inventory', timestamps: false },
    );
  }
}

/** When a member last posted, for "active users" counts. */
export class MemberActivity extends Model<InferAttributes<MemberActivity>, InferCreationAttributes<MemberActivity>> {
  declare guildId: string;
  declare userId: string;
  declare lastMessageAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(attributesOf(MEMBER_ACTIVITY), { sequelize, tableName: MEMBER_ACTIVITY.name, timestamps: false });
  }
}
