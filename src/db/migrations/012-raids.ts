import { DataTypes, type QueryInterface } from 'sequelize';

// Raid mode of a server (issue 24, point 4), kept so that it survives a restart and that two
// processes on one store agree on it: one row per server, turned on and off by conditional updates
// (the process whose update changes the row acts). It remembers what raid mode did, so falling back
// undoes exactly that: the verification level it replaced, the invite pause, how many it timed out.

/** Adds the table. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('raid_states', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
    guildId: { type: DataTypes.STRING(21), allowNull: false },
    /** Raid mode is on while startedAt is set and endedAt is not. */
    startedAt: { type: DataTypes.DATE, allowNull: true },
    endedAt: { type: DataTypes.DATE, allowNull: true },
    /** 'automatic' (the rule) or 'manual' (a moderator). */
    trigger: { type: DataTypes.STRING(16), allowNull: true },
    startedById: { type: DataTypes.STRING(21), allowNull: true },
    startedByName: { type: DataTypes.STRING(100), allowNull: true },
    joinCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    windowSeconds: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    /** Discord's verification level before raid mode, and the one it set (null: not raised). */
    previousLevel: { type: DataTypes.INTEGER, allowNull: true },
    raisedTo: { type: DataTypes.INTEGER, allowNull: true },
    /** Until when invites are paused (Discord's incident actions, renewed while raid mode lasts). */
    invitesPausedUntil: { type: DataTypes.DATE, allowNull: true },
    timedOut: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    lastBurstAt: { type: DataTypes.DATE, allowNull: true },
    /** What could not be done, in words (a missing permission), for the card and the alert. */
    problems: { type: DataTypes.TEXT, allowNull: true },
    updatedAt: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('raid_states', { fields: ['guildId'], unique: true, name: 'raid_states_guild' });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.dropTable('raid_states');
}
