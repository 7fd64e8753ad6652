import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

// Per-member rows. `userId` is the member's Discord id and `serverId` the guild's Discord id:
// members who never open the dashboard still earn XP and coins.

/** A member's wallet in one guild. */
export class UserCurrency extends Model<InferAttributes<UserCurrency>, InferCreationAttributes<UserCurrency>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare serverId: string;
  declare balance: CreationOptional<number>;
  declare totalEarned: CreationOptional<number>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    UserCurrency.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        balance: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        totalEarned: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'user_currency', createdAt: false },
    );
  }
}

/** A member's XP and level in one guild. */
export class UserLevel extends Model<InferAttributes<UserLevel>, InferCreationAttributes<UserLevel>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare serverId: string;
  declare level: CreationOptional<number>;
  declare xp: CreationOptional<number>;
  declare totalXp: CreationOptional<number>;
  declare messagesCount: CreationOptional<number>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    UserLevel.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        level: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
        xp: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        totalXp: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        messagesCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'user_levels', createdAt: false },
    );
  }
}

/** An item a member owns in one guild. */
export class UserInventory extends Model<InferAttributes<UserInventory>, InferCreationAttributes<UserInventory>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare serverId: string;
  declare itemId: number | null;
  declare itemName: string;
  declare itemType: string;
  declare quantity: CreationOptional<number>;
  declare acquiredAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    UserInventory.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
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
  declare serverId: string;
  declare userId: string;
  declare lastMessageAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    MemberActivity.init(
      {
        serverId: { type: DataTypes.STRING(21), primaryKey: true },
        userId: { type: DataTypes.STRING(21), primaryKey: true },
        lastMessageAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'member_activity', timestamps: false },
    );
  }
}
