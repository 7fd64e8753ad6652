import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A guild the bot has seen. `discordId` is the guild id, which every per-guild row stores as `serverId`. */
export class Server extends Model<InferAttributes<Server>, InferCreationAttributes<Server>> {
  declare id: CreationOptional<number>;
  declare discordId: string;
  declare name: string;
  declare icon: string | null;
  declare ownerId: string | null;
  declare botEnabled: CreationOptional<boolean>;
  declare settings: CreationOptional<Record<string, unknown>>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    Server.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        discordId: { type: DataTypes.STRING(21), allowNull: false, unique: true },
        name: { type: DataTypes.STRING(100), allowNull: false },
        icon: { type: DataTypes.STRING(100), allowNull: true },
        ownerId: { type: DataTypes.STRING(21), allowNull: true },
        botEnabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        settings: { type: DataTypes.JSON, allowNull: false, defaultValue: {} },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'servers' },
    );
  }
}
