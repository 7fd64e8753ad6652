import { attributesOf } from '../columns';
import { TRANSACTIONS } from '../tables';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

import type { ShopItemType, TransactionType } from '../../shared/economy';

/** Something members can buy in a guild's shop. */
export class ShopItem extends Model<InferAttributes<ShopItem>, InferCreationAttributes<ShopItem>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare name: string;
  declare description: string | null;
  declare price: number;
  declare type: ShopItemType;
  declare roleId: string | null;
  declare icon: string | null;
  declare isActive: CreationOptional<boolean>;
  declare purchaseCount: CreationOptional<number>;
  /** How many are left to buy; null is unlimited. */
  declare stock: number | null;
  /** How many one member may own; null is unlimited. */
  declare perMemberLimit: number | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  /** Counts edits (not purchases or sends): a save based on an older version is recognised. */
  declare version: CreationOptional<number>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        description: { type: DataTypes.TEXT, allowNull: true },
        price: { type: DataTypes.INTEGER, allowNull: false },
        type: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'role' },
        roleId: { type: DataTypes.STRING(21), allowNull: true },
        icon: { type: DataTypes.STRING(200), allowNull: true },
        isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        purchaseCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        stock: { type: DataTypes.INTEGER, allowNull: true },
        perMemberLimit: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
        version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      },
      { sequelize, tableName: 'shop_items' },
    );
  }
}

/**
 * One movement of currency, the ledger's row: `amount` is signed (earn > 0, purchase < 0), and a
 * member's balance is always the sum of their rows. `actorId` is who moved it (an admin, the giver),
 * `counterpartyId` the other side of a give.
 */
export class Transaction extends Model<InferAttributes<Transaction>, InferCreationAttributes<Transaction>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare guildId: string;
  declare type: TransactionType;
  declare amount: number;
  declare itemId: number | null;
  declare itemName: string | null;
  declare description: string | null;
  declare actorId: string | null;
  declare counterpartyId: string | null;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(attributesOf(TRANSACTIONS), { sequelize, tableName: TRANSACTIONS.name, timestamps: false });
  }
}

/** A role given at a level (role rewards). */
export class LevelReward extends Model<InferAttributes<LevelReward>, InferCreationAttributes<LevelReward>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare level: number;
  declare roleId: string;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        level: { type: DataTypes.INTEGER, allowNull: false },
        roleId: { type: DataTypes.STRING(21), allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'level_rewards', timestamps: false },
    );
  }
}
