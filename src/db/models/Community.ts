import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Reacting with `emoji` on message `messageId` gives role `roleId`. */
export class ReactionRole extends Model<InferAttributes<ReactionRole>, InferCreationAttributes<ReactionRole>> {
  declare id: CreationOptional<number>;
  declare serverId: string;
  declare messageId: string;
  declare channelId: string;
  declare emoji: string;
  declare roleId: string;
  declare roleName: string | null;
  declare isActive: CreationOptional<boolean>;
  declare createdAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    ReactionRole.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        messageId: { type: DataTypes.STRING(21), allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: false },
        emoji: { type: DataTypes.STRING(100), allowNull: false },
        roleId: { type: DataTypes.STRING(21), allowNull: false },
        roleName: { type: DataTypes.STRING(100), allowNull: true },
        isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'reaction_roles', updatedAt: false },
    );
  }
}

/** Announcement states: scheduled ones are sent by whichever process holds the row's lease. */
export const ANNOUNCEMENT_STATUSES = ['scheduled', 'sending', 'sent', 'failed'] as const;

/** An announcement posted (or to be posted) by the bot. */
export class Announcement extends Model<InferAttributes<Announcement>, InferCreationAttributes<Announcement>> {
  declare id: CreationOptional<number>;
  declare serverId: string;
  declare channelId: string;
  declare title: string;
  declare message: string;
  declare priority: string;
  declare scheduleTime: Date | null;
  declare status: (typeof ANNOUNCEMENT_STATUSES)[number];
  declare sentAt: Date | null;
  declare messageId: string | null;
  declare error: string | null;
  declare createdById: string | null;
  declare leaseUntil: Date | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    Announcement.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: false },
        title: { type: DataTypes.STRING(256), allowNull: false },
        message: { type: DataTypes.TEXT, allowNull: false },
        priority: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'normal' },
        scheduleTime: { type: DataTypes.DATE, allowNull: true },
        status: { type: DataTypes.STRING(16), allowNull: false },
        sentAt: { type: DataTypes.DATE, allowNull: true },
        messageId: { type: DataTypes.STRING(21), allowNull: true },
        error: { type: DataTypes.TEXT, allowNull: true },
        createdById: { type: DataTypes.STRING(21), allowNull: true },
        leaseUntil: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'announcements' },
    );
  }
}

/** One moderation action taken through the bot (ban, kick, timeout, warn). */
export class ModerationLog extends Model<InferAttributes<ModerationLog>, InferCreationAttributes<ModerationLog>> {
  declare id: CreationOptional<number>;
  declare serverId: string;
  declare moderatorId: string;
  declare targetId: string;
  declare action: string;
  declare reason: string | null;
  declare details: Record<string, unknown> | null;
  declare createdAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    ModerationLog.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        serverId: { type: DataTypes.STRING(21), allowNull: false },
        moderatorId: { type: DataTypes.STRING(21), allowNull: false },
        targetId: { type: DataTypes.STRING(21), allowNull: false },
        action: { type: DataTypes.STRING(16), allowNull: false },
        reason: { type: DataTypes.TEXT, allowNull: true },
        details: { type: DataTypes.JSON, allowNull: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'moderation_logs', updatedAt: false },
    );
  }
}
