import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A banned member's appeal of a ban case, and the moderators' decision (see src/features/moderation/appeals.ts). */
export class ModerationAppeal extends Model<InferAttributes<ModerationAppeal>, InferCreationAttributes<ModerationAppeal>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  /** The ban case appealed. */
  declare caseNumber: number;
  /** The banned member (the case's target), who wrote the appeal. */
  declare userId: string;
  declare userName: string | null;
  declare text: string;
  /** open, accepted or denied; one open appeal per case (a partial unique index). */
  declare status: string;
  declare decidedById: string | null;
  declare decidedByName: string | null;
  declare decisionReason: string | null;
  /** The unban case an accepted appeal took. */
  declare unbanCaseNumber: number | null;
  /** Whether the member was told the decision by DM (null: not decided yet). */
  declare dmDelivered: boolean | null;
  declare createdAt: Date;
  declare decidedAt: Date | null;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        caseNumber: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        userName: { type: DataTypes.STRING(100), allowNull: true },
        text: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.STRING(12), allowNull: false },
        decidedById: { type: DataTypes.STRING(21), allowNull: true },
        decidedByName: { type: DataTypes.STRING(100), allowNull: true },
        decisionReason: { type: DataTypes.TEXT, allowNull: true },
        unbanCaseNumber: { type: DataTypes.INTEGER, allowNull: true },
        dmDelivered: { type: DataTypes.BOOLEAN, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        decidedAt: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'moderation_appeals', timestamps: false },
    );
  }
}
