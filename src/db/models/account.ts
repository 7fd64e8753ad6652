import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/**
 * A dashboard account, made when someone signs in through Discord. `id` is ours (accountId
 * elsewhere); `userId` is their Discord id. Tokens are stored encrypted (src/core/crypto.ts).
 */
export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: CreationOptional<number>;
  declare userId: string;
  declare username: string;
  declare discriminator: string;
  declare avatar: string | null;
  declare accessToken: string | null;
  declare refreshToken: string | null;
  declare tokenExpiresAt: Date | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        userId: { type: DataTypes.STRING(21), allowNull: false, unique: true },
        username: { type: DataTypes.STRING(100), allowNull: false },
        discriminator: { type: DataTypes.STRING(4), allowNull: false, defaultValue: '0' },
        avatar: { type: DataTypes.STRING(100), allowNull: true },
        accessToken: { type: DataTypes.TEXT, allowNull: true },
        refreshToken: { type: DataTypes.TEXT, allowNull: true },
        tokenExpiresAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'accounts' },
    );
  }
}
