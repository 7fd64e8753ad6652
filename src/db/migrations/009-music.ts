import { DataTypes, type QueryInterface } from 'sequelize';

// The music library (one row per uploaded audio file; the file itself lies on disk under
// MUSIC_DIR, named by its content hash) and the internet radio stations a server saved by name.
// A station's name is unique per server whatever its case: nameKey holds it lower-cased.

const snowflake = () => ({ type: DataTypes.STRING(21), allowNull: false });

/** Adds the tables. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('music_tracks', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    /** sha256 of the file's bytes, in hex: its name on disk. */
    contentHash: { type: DataTypes.STRING(64), allowNull: false },
    title: { type: DataTypes.STRING(200), allowNull: false },
    artist: { type: DataTypes.STRING(200), allowNull: true },
    album: { type: DataTypes.STRING(200), allowNull: true },
    durationSeconds: { type: DataTypes.DOUBLE, allowNull: false },
    format: { type: DataTypes.STRING(8), allowNull: false },
    sizeBytes: { type: DataTypes.BIGINT, allowNull: false },
    uploadedById: snowflake(),
    uploadedByName: { type: DataTypes.STRING(100), allowNull: false },
    version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('music_tracks', { fields: ['guildId', { name: 'id', order: 'DESC' }], name: 'music_tracks_guild' });
  await qi.addIndex('music_tracks', { fields: ['guildId', 'contentHash'], name: 'music_tracks_hash' });
  await qi.createTable('music_stations', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: snowflake(),
    name: { type: DataTypes.STRING(50), allowNull: false },
    nameKey: { type: DataTypes.STRING(50), allowNull: false },
    url: { type: DataTypes.STRING(2000), allowNull: false },
    version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    createdAt: { type: DataTypes.DATE, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('music_stations', { fields: ['guildId', 'nameKey'], unique: true, name: 'music_stations_name' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('music_stations');
  await qi.dropTable('music_tracks');
}
