import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A server's raid mode: on while startedAt is set and endedAt is not (features/moderation/raid-state.ts). */
export class RaidState extends Model<InferAttributes<RaidState>, InferCreationAttributes<RaidState>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare startedAt: Date | null;
  declare endedAt: Date | null;
  declare trigger: string | null;
  declare startedById: string | null;
  declare startedByName: string | null;
  declare joinCount: number;
  declare windowSeconds: number;
  declare previousLevel: number | null;
  declare raisedTo: number | null;
  declare invitesPausedUntil: Date | null;
  declare timedOut: number;
  declare lastBurstAt: Date | null;
  declare problems: string | null;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        startedAt: { type: DataTypes.DATE, allowNull: true },
        endedAt: { type: DataTypes.DATE, allowNull: true },
        trigger: { type: DataTypes.STRING(16), allowNull: true },
        startedById: { type: DataTypes.STRING(21), allowNull: true },
        startedByName: { type: DataTypes.STRING(100), allowNull: true },
        joinCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        windowSeconds: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        previousLevel: { type: DataTypes.INTEGER, allowNull: true },
        raisedTo: { type: DataTypes.INTEGER, allowNull: true },
        invitesPausedUntil: { type: DataTypes.DATE, allowNull: true },
        timedOut: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        lastBurstAt: { type: DataTypes.DATE, allowNull: true },
        problems: { type: DataTypes.TEXT, allowNull: true },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'raid_states', timestamps: false },
    );
  }
}
