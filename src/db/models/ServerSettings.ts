import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { SETTINGS_DEFAULTS as D } from '../../shared/settings';

/** One guild's feature settings (welcome, verification, leveling, economy). */
export class ServerSettings extends Model<InferAttributes<ServerSettings>, InferCreationAttributes<ServerSettings>> {
  declare id: CreationOptional<number>;
  declare serverId: string;
  declare welcomeEnabled: CreationOptional<boolean>;
  declare welcomeChannelId: string | null;
  declare welcomeMessage: CreationOptional<string>;
  declare rulesChannelId: string | null;
  declare rulesMessage: string | null;
  declare verificationRoleId: string | null;
  declare verificationEnabled: CreationOptional<boolean>;
  declare levelingEnabled: CreationOptional<boolean>;
  declare economyEnabled: CreationOptional<boolean>;
  declare currencyName: CreationOptional<string>;
  declare baseReward: CreationOptional<number>;
  declare levelUpBonus: CreationOptional<number>;
  declare xpCooldown: CreationOptional<number>;
  declare levelUpAnnouncements: CreationOptional<boolean>;
  declare textMultiplier: CreationOptional<number>;
  declare voiceMultiplier: CreationOptional<number>;
  declare weekendMultiplier: CreationOptional<number>;
  declare boostMultiplier: CreationOptional<number>;
  declare updatedAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    const flag = (value: boolean) => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue: value });
    const int = (value: number) => ({ type: DataTypes.INTEGER, allowNull: false, defaultValue: value });
    const float = (value: number) => ({ type: DataTypes.FLOAT, allowNull: false, defaultValue: value });
    // Fresh objects per attribute: Sequelize writes into attribute definitions.
    const id = () => ({ type: DataTypes.STRING(21), allowNull: true });
    ServerSettings.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        serverId: { type: DataTypes.STRING(21), allowNull: false, unique: true },
        welcomeEnabled: flag(D.welcomeEnabled),
        welcomeChannelId: id(),
        welcomeMessage: { type: DataTypes.TEXT, allowNull: false, defaultValue: D.welcomeMessage },
        rulesChannelId: id(),
        rulesMessage: { type: DataTypes.TEXT, allowNull: true },
        verificationRoleId: id(),
        verificationEnabled: flag(D.verificationEnabled),
        levelingEnabled: flag(D.levelingEnabled),
        economyEnabled: flag(D.economyEnabled),
        currencyName: { type: DataTypes.STRING(32), allowNull: false, defaultValue: D.currencyName },
        baseReward: int(D.baseReward),
        levelUpBonus: int(D.levelUpBonus),
        xpCooldown: int(D.xpCooldown),
        levelUpAnnouncements: flag(D.levelUpAnnouncements),
        textMultiplier: float(D.textMultiplier),
        voiceMultiplier: float(D.voiceMultiplier),
        weekendMultiplier: float(D.weekendMultiplier),
        boostMultiplier: float(D.boostMultiplier),
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'server_settings', createdAt: false },
    );
  }
}
