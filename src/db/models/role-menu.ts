import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A role menu: a message of buttons or a select that hands out roles (src/features/role-menus). */
export class RoleMenu extends Model<InferAttributes<RoleMenu>, InferCreationAttributes<RoleMenu>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare channelId: string;
  /** The posted message, once posted. */
  declare messageId: string | null;
  declare title: string;
  declare description: string | null;
  /** #rrggbb. */
  declare colour: string;
  /** buttons or select. */
  declare style: string;
  /** normal, unique, verify or drop. */
  declare mode: string;
  declare maxRoles: number | null;
  declare requiredRoleId: string | null;
  /** JSON: the options in order, [{ roleId, label, emoji, description }]. */
  declare options: string;
  declare createdAt: Date;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: false },
        messageId: { type: DataTypes.STRING(21), allowNull: true },
        title: { type: DataTypes.STRING(256), allowNull: false },
        description: { type: DataTypes.TEXT, allowNull: true },
        colour: { type: DataTypes.STRING(7), allowNull: false },
        style: { type: DataTypes.STRING(10), allowNull: false },
        mode: { type: DataTypes.STRING(10), allowNull: false },
        maxRoles: { type: DataTypes.INTEGER, allowNull: true },
        requiredRoleId: { type: DataTypes.STRING(21), allowNull: true },
        options: { type: DataTypes.TEXT, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'role_menus', timestamps: false },
    );
  }
}
