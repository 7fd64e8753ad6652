import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Shop item types (spec section 9). */
export const SHOP_ITEM_TYPES = ['role', 'cosmetic', 'badge', 'other'] as const;
export type ShopItemType = (typeof SHOP_ITEM_TYPES)[number];

/** Something members can buy in a guild's shop. */
export class ShopItem extends Model<InferAttributes<ShopItem>, InferCreationAttributes<ShopItem>> {
  declare id: CreationOptional<number>;
  declare serverId: string;
  declare name: string;
  declare description: string | null;
  declare price: number;
  declare type: ShopItemType;
  declare roleId: string | null;
  declare icon: string | null;
  declare isActive: CreationOptional<boolean>;
  declare purchaseCount: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    ShopItem.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        description: { type: DataTypes.TEXT, allowNull: true },
        price: { type: DataTypes.INTEGER, allowNull: false },
        type: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'role' },
        roleId: { type: DataTypes.STRING(21), allowNull: true },
        icon: { type: DataTypes.STRING(200), allowNull: true },
        isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        purchaseCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'shop_items' },
    );
  }
}

/** One movement of currency: `amount` is signed (earn > 0, purchase < 0). */
export class Transaction extends Model<InferAttributes<Transaction>, InferCreationAttributes<Transaction>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare serverId: string;
  declare type: string;
  declare amount: number;
  declare itemId: number | null;
  declare itemName: string | null;
  declare description: string | null;
  declare createdAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    Transaction.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        type: { type: DataTypes.STRING(16), allowNull: false },
        amount: { type: DataTypes.INTEGER, allowNull: false },
        itemId: { type: DataTypes.INTEGER, allowNull: true },
        itemName: { type: DataTypes.STRING(100), allowNull: true },
        description: { type: DataTypes.TEXT, allowNull: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'transactions', updatedAt: false },
    );
  }
}
