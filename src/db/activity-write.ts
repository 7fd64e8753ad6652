// The activity counts' writes, as a store-writer job (src/db/writer.ts): messages, joins, leaves
// and commands per guild and day, each member's last post, and commands by name, added to what the
// store holds. Plain inputs, no Sequelize: it runs in the writer's thread too.
import { instantParam, jsonOf, jsonRows, storedInstant, together, type SqlSession } from './sql';

/** A guild's counts of one UTC day. */
export interface DayCounters {
  guildId: string;
  day: string;
  messages: number;
  joins: number;
  leaves: number;
  commands: number;
}

/** What one activity write adds, each list as JSON (made by activityWrite). */
export interface ActivityWrite {
  days: string;
  /** Members' last posts (stored instants); a later one already stored is kept. */
  posts: string;
  commands: string;
}

const DAY_FIELDS = { guildId: 'text', day: 'text', messages: 'integer', joins: 'integer', leaves: 'integer', commands: 'integer' } as const;
const POST_FIELDS = { guildId: 'text', userId: 'text', at: 'text' } as const;
const COMMAND_FIELDS = { guildId: 'text', command: 'text', count: 'integer' } as const;

/** The write of these counts, posts (epoch ms) and command counts. */
export function activityWrite(
  days: readonly DayCounters[],
  posts: readonly { guildId: string; userId: string; at: number }[],
  commands: readonly { guildId: string; command: string; count: number }[],
): ActivityWrite {
  return {
    days: jsonOf(days, DAY_FIELDS),
    posts: jsonOf(
      posts.map((post) => ({ ...post, at: storedInstant(post.at) })),
      POST_FIELDS,
    ),
    commands: jsonOf(commands, COMMAND_FIELDS),
  };
}

/** Adds the counts in the session's transaction: three tables, sent together. */
export async function writeActivity(session: SqlSession, write: ActivityWrite): Promise<void> {
  const { dialect } = session;
  const days = jsonRows(dialect, '$1', DAY_FIELDS);
  const posts = jsonRows(dialect, '$1', POST_FIELDS);
  const commands = jsonRows(dialect, '$1', COMMAND_FIELDS);
  await together(session, [
    () =>
      session.query(
        `INSERT INTO guild_daily_stats ("guildId", "day", "messages", "joins", "leaves", "commands")
       SELECT ${days.field.guildId}, ${days.field.day}, ${days.field.messages},
         ${days.field.joins}, ${days.field.leaves}, ${days.field.commands} FROM ${days.from} WHERE true
       ON CONFLICT ("guildId", "day") DO UPDATE SET
         "messages" = guild_daily_stats."messages" + excluded."messages",
         "joins" = guild_daily_stats."joins" + excluded."joins",
         "leaves" = guild_daily_stats."leaves" + excluded."leaves",
         "commands" = guild_daily_stats."commands" + excluded."commands"`,
        [write.days],
      ),
    () =>
      session.query(
        `INSERT INTO member_activity ("guildId", "userId", "lastMessageAt")
       SELECT ${posts.field.guildId}, ${posts.field.userId}, ${instantParam(dialect, posts.field.at)} FROM ${posts.from} WHERE true
       ON CONFLICT ("guildId", "userId") DO UPDATE SET "lastMessageAt" =
         CASE WHEN excluded."lastMessageAt" > member_activity."lastMessageAt" THEN excluded."lastMessageAt" ELSE member_activity."lastMessageAt" END`,
        [write.posts],
      ),
    () =>
      session.query(
        `INSERT INTO command_usage ("guildId", "command", "count")
       SELECT ${commands.field.guildId}, ${commands.field.command}, ${commands.field.count} FROM ${commands.from} WHERE true
       ON CONFLICT ("guildId", "command") DO UPDATE SET "count" = command_usage."count" + excluded."count"`,
        [write.commands],
      ),
  ] as const);
}
