import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** An audio file of a server's library: its tags as read on upload (or as an admin corrected them) and where its bytes are. */
export class MusicTrack extends Model<InferAttributes<MusicTrack>, InferCreationAttributes<MusicTrack>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  /** sha256 of the bytes in hex: the file's name on disk, never a name a person chose. */
  declare contentHash: string;
  declare title: string;
  declare artist: string | null;
  declare album: string | null;
  declare durationSeconds: number;
  declare format: string;
  declare sizeBytes: number;
  declare uploadedById: string;
  declare uploadedByName: string;
  /** Counts the edits, for the saves of two admins at once (db/versioned). */
  declare version: CreationOptional<number>;
  declare createdAt: Date;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        contentHash: { type: DataTypes.STRING(64), allowNull: false },
        title: { type: DataTypes.STRING(200), allowNull: false },
        artist: { type: DataTypes.STRING(200), allowNull: true },
        album: { type: DataTypes.STRING(200), allowNull: true },
        durationSeconds: { type: DataTypes.DOUBLE, allowNull: false },
        format: { type: DataTypes.STRING(8), allowNull: false },
        // PostgreSQL answers BIGINT as text; the getter keeps it a number (files are far below 2^53 bytes).
        sizeBytes: {
          type: DataTypes.BIGINT,
          allowNull: false,
          get(this: MusicTrack) {
            return Number(this.getDataValue('sizeBytes'));
          },
        },
        uploadedById: { type: DataTypes.STRING(21), allowNull: false },
        uploadedByName: { type: DataTypes.STRING(100), allowNull: false },
        version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      // Times come from the product's clock (tests move it), not Sequelize's.
      { sequelize, tableName: 'music_tracks', timestamps: false },
    );
  }
}

/** An internet radio station a server saved by name. */
export class MusicStation extends Model<InferAttributes<MusicStation>, InferCreationAttributes<MusicStation>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare name: string;
  /** The name lower-cased: unique per server, so "Jazz FM" and "jazz fm" are one name. */
  declare nameKey: string;
  declare url: string;
  /** Counts the edits, for the saves of two admins at once (db/versioned). */
  declare version: CreationOptional<number>;
  declare createdAt: Date;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        name: { type: DataTypes.STRING(50), allowNull: false },
        nameKey: { type: DataTypes.STRING(50), allowNull: false },
        url: { type: DataTypes.STRING(2000), allowNull: false },
        version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'music_stations', timestamps: false },
    );
  }
}

/** What a server's music player was doing, so a restart resumes it (features/music/sessions.ts). */
export class MusicSession extends Model<InferAttributes<MusicSession>, InferCreationAttributes<MusicSession>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare voiceChannelId: string;
  declare textChannelId: string | null;
  /** JSON (features/music/sessions.ts, SessionState). */
  declare state: string;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        voiceChannelId: { type: DataTypes.STRING(21), allowNull: false },
        textChannelId: { type: DataTypes.STRING(21), allowNull: true },
        state: { type: DataTypes.TEXT, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'music_sessions', timestamps: false },
    );
  }
}
