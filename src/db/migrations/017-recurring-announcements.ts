import { DataTypes, type QueryInterface } from 'sequelize';

// Recurring announcements and editing in place (issue 25, point 8). A recurring announcement is
// one row that stays 'scheduled' with scheduleTime at its next occurrence: the rule (frequency,
// time of day, weekdays, day of month) as JSON, its IANA time zone, its end (a last local day,
// a number of sends) and how many went out. messageId keeps the latest message sent, the one
// "Edit message" changes in place; editedAt says when it was last edited.

const COLUMNS = ['recurrence', 'timeZone', 'untilDay', 'maxSends', 'sendCount', 'editedAt'] as const;

/** Adds the columns. */
export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.addColumn('announcements', 'recurrence', { type: DataTypes.TEXT, allowNull: true });
  await qi.addColumn('announcements', 'timeZone', { type: DataTypes.STRING(64), allowNull: true });
  await qi.addColumn('announcements', 'untilDay', { type: DataTypes.STRING(10), allowNull: true });
  await qi.addColumn('announcements', 'maxSends', { type: DataTypes.INTEGER, allowNull: true });
  await qi.addColumn('announcements', 'sendCount', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  await qi.addColumn('announcements', 'editedAt', { type: DataTypes.DATE, allowNull: true });
}

/** Reverses up(). */
export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  for (const column of COLUMNS) await qi.removeColumn('announcements', column);
}
