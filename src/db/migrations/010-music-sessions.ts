import { DataTypes, type QueryInterface } from 'sequelize';

// What a server's music player was doing (its voice channel, the queue, where the current track
// was, the volume and loop mode), kept so that after a restart the bot rejoins and resumes it.
// One row per server while it plays; removed when the player leaves.

/** Adds the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('music_sessions', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    voiceChannelId: { type: DataTypes.STRING(21), allowNull: false },
    textChannelId: { type: DataTypes.STRING(21), allowNull: true },
    /** JSON: the queue (current first), loop mode, volume, paused, position of the current track. */
    state: { type: DataTypes.TEXT, allowNull: false },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('music_sessions', { fields: ['guildId'], unique: true, name: 'music_sessions_guild' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('music_sessions');
}
