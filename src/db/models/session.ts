import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A dashboard session. `id` is the SHA-256 of the cookie's key, so a store leak cannot replay sessions. */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: string;
  declare data: Record<string, unknown>;
  declare accountId: number | null;
  declare expiresAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.STRING(64), primaryKey: true },
        data: { type: DataTypes.JSON, allowNull: false },
        accountId: { type: DataTypes.INTEGER, allowNull: true },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'sessions', timestamps: false },
    );
  }
}
