import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { RoleGrantAction, RoleGrantSource, RoleGrantStatus } from '../../shared/role-grants';

/**
 * A role the bot gives or takes on a member's behalf that did not go through at once: waiting for
 * a retry (Discord did not answer), failed (Discord refused, or never answered), done or dropped.
 */
export class RoleGrantRetry extends Model<InferAttributes<RoleGrantRetry>, InferCreationAttributes<RoleGrantRetry>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare userId: string;
  declare memberName: string | null;
  declare roleId: string;
  declare roleName: string | null;
  declare action: RoleGrantAction;
  declare source: RoleGrantSource;
  /** The reaction role entry or the level reward it comes from, when there is one. */
  declare sourceId: number | null;
  /** The audit-log reason Discord records with the change. */
  declare reason: string;
  declare attempts: CreationOptional<number>;
  /** When the next try is due; null unless pending. */
  declare nextAttemptAt: Date | null;
  /** Why the last try did not go through, as a sentence. */
  declare lastError: string | null;
  declare status: RoleGrantStatus;
  /** Until when a process holds the grant while it tries it (the lease; null when none does). */
  declare claimedUntil: Date | null;
  /** When the grant was queued (or queued again by an admin's Retry now). */
  declare createdAt: Date;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        memberName: { type: DataTypes.STRING(100), allowNull: true },
        roleId: { type: DataTypes.STRING(21), allowNull: false },
        roleName: { type: DataTypes.STRING(100), allowNull: true },
        action: { type: DataTypes.STRING(8), allowNull: false },
        source: { type: DataTypes.STRING(16), allowNull: false },
        sourceId: { type: DataTypes.INTEGER, allowNull: true },
        reason: { type: DataTypes.STRING(300), allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        nextAttemptAt: { type: DataTypes.DATE, allowNull: true },
        lastError: { type: DataTypes.STRING(500), allowNull: true },
        status: { type: DataTypes.STRING(8), allowNull: false },
        claimedUntil: { type: DataTypes.DATE, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      // Times come from the product's clock (tests move it), not Sequelize's.
      { sequelize, tableName: 'role_grant_retries', timestamps: false },
    );
  }
}
