import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A copy of the level rows a reset, a restore or an import replaced, restorable for 7 days (src/features/leveling/backups.ts). */
export class LevelBackup extends Model<InferAttributes<LevelBackup>, InferCreationAttributes<LevelBackup>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  /** reset-member, reset-server or import. */
  declare kind: string;
  /** The member a one-member reset was for. */
  declare userId: string | null;
  /** What was done, in words ("Reset the whole server's levels"). */
  declare summary: string;
  declare memberCount: number;
  /** JSON: each affected member's row as it was, or null when they had none (see BackupSnapshot). */
  declare snapshot: string;
  declare actorId: string | null;
  declare actorName: string | null;
  declare createdAt: Date;
  declare expiresAt: Date;
  declare restoredAt: Date | null;
  declare restoredByName: string | null;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        kind: { type: DataTypes.STRING(12), allowNull: false },
        userId: { type: DataTypes.STRING(21), allowNull: true },
        summary: { type: DataTypes.STRING(200), allowNull: false },
        memberCount: { type: DataTypes.INTEGER, allowNull: false },
        snapshot: { type: DataTypes.TEXT, allowNull: false },
        actorId: { type: DataTypes.STRING(21), allowNull: true },
        actorName: { type: DataTypes.STRING(100), allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        expiresAt: { type: DataTypes.DATE, allowNull: false },
        restoredAt: { type: DataTypes.DATE, allowNull: true },
        restoredByName: { type: DataTypes.STRING(100), allowNull: true },
      },
      { sequelize, tableName: 'level_backups', timestamps: false },
    );
  }
}

/** XP an admin gave or took, and why (src/features/leveling/adjustments.ts). */
export class XpAdjustment extends Model<InferAttributes<XpAdjustment>, InferCreationAttributes<XpAdjustment>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare userId: string;
  declare username: string | null;
  /** Positive: given; negative: taken. */
  declare amount: number;
  declare reason: string;
  /** The member's total XP before and after. */
  declare fromXp: number;
  declare toXp: number;
  declare actorId: string | null;
  declare actorName: string | null;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        username: { type: DataTypes.STRING(100), allowNull: true },
        amount: { type: DataTypes.INTEGER, allowNull: false },
        reason: { type: DataTypes.STRING(200), allowNull: false },
        fromXp: { type: DataTypes.INTEGER, allowNull: false },
        toXp: { type: DataTypes.INTEGER, allowNull: false },
        actorId: { type: DataTypes.STRING(21), allowNull: true },
        actorName: { type: DataTypes.STRING(100), allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'xp_adjustments', timestamps: false },
    );
  }
}
