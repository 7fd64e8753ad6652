import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** One guild's settings: only what differs from the defaults, as a JSON document; `version` counts writes. */
export class GuildSettings extends Model<InferAttributes<GuildSettings>, InferCreationAttributes<GuildSettings>> {
  declare guildId: string;
  declare data: Record<string, unknown>;
  declare version: CreationOptional<number>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        guildId: { type: DataTypes.STRING(21), primaryKey: true },
        data: { type: DataTypes.JSON, allowNull: false },
        version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'guild_settings', createdAt: false },
    );
  }
}

/** One recorded change of a guild's configuration: who, when, what changed (from -> to), and the settings after it. */
export class SettingsHistory extends Model<InferAttributes<SettingsHistory>, InferCreationAttributes<SettingsHistory>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare actorId: string | null;
  declare actorName: string | null;
  declare kind: string;
  declare summary: string;
  declare changes: { field: string; from: unknown; to: unknown }[];
  declare snapshot: Record<string, unknown> | null;
  /** The version of the guild's settings this change produced (null: not a settings write). */
  declare version: CreationOptional<number | null>;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        actorId: { type: DataTypes.STRING(21), allowNull: true },
        actorName: { type: DataTypes.STRING(100), allowNull: true },
        kind: { type: DataTypes.STRING(16), allowNull: false },
        summary: { type: DataTypes.STRING(300), allowNull: false },
        changes: { type: DataTypes.JSON, allowNull: false },
        snapshot: { type: DataTypes.JSON, allowNull: true },
        version: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'settings_history', timestamps: false },
    );
  }
}

/** A bot-wide setting (the presence's status message): not any one guild's. */
export class AppSetting extends Model<InferAttributes<AppSetting>, InferCreationAttributes<AppSetting>> {
  declare key: string;
  declare value: unknown;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        key: { type: DataTypes.STRING(64), primaryKey: true },
        value: { type: DataTypes.JSON, allowNull: false },
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'app_settings', createdAt: false },
    );
  }
}

/** Dashboard access to one guild, granted to a role or a member (`view` or `edit`), optionally until a date. */
export class DashboardGrant extends Model<InferAttributes<DashboardGrant>, InferCreationAttributes<DashboardGrant>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare subjectType: 'role' | 'member';
  declare subjectId: string;
  declare level: 'view' | 'edit';
  declare expiresAt: Date | null;
  declare createdBy: string;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        subjectType: { type: DataTypes.STRING(8), allowNull: false },
        subjectId: { type: DataTypes.STRING(21), allowNull: false },
        level: { type: DataTypes.STRING(8), allowNull: false },
        expiresAt: { type: DataTypes.DATE, allowNull: true },
        createdBy: { type: DataTypes.STRING(21), allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'dashboard_grants', timestamps: false },
    );
  }
}

/** One notification POSTed (or being POSTed) to a guild's webhook URL. */
export class WebhookDelivery extends Model<InferAttributes<WebhookDelivery>, InferCreationAttributes<WebhookDelivery>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare event: string;
  /** The URL's origin and path (no query: it may hold a secret). */
  declare target: string;
  declare status: 'pending' | 'delivered' | 'failed';
  declare attempts: CreationOptional<number>;
  declare responseStatus: number | null;
  declare error: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        event: { type: DataTypes.STRING(32), allowNull: false },
        target: { type: DataTypes.STRING(300), allowNull: false },
        status: { type: DataTypes.STRING(16), allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        responseStatus: { type: DataTypes.INTEGER, allowNull: true },
        error: { type: DataTypes.STRING(500), allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'webhook_deliveries', timestamps: false },
    );
  }
}

/** One edit of a versioned row (a shop item, a reaction role, an announcement): who, when, each field from -> to, and the version it produced. */
export class Revision extends Model<InferAttributes<Revision>, InferCreationAttributes<Revision>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare entity: string;
  declare entityId: number;
  declare version: number;
  declare actorId: string | null;
  declare actorName: string | null;
  declare changes: { field: string; from: unknown; to: unknown }[];
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        entity: { type: DataTypes.STRING(32), allowNull: false },
        entityId: { type: DataTypes.INTEGER, allowNull: false },
        version: { type: DataTypes.INTEGER, allowNull: false },
        actorId: { type: DataTypes.STRING(21), allowNull: true },
        actorName: { type: DataTypes.STRING(100), allowNull: true },
        changes: { type: DataTypes.JSON, allowNull: false },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'revisions', timestamps: false },
    );
  }
}
