// The activity counts' writes, as a store-writer job (src/db/writer.ts): messages, joins, leaves
// and commands per guild and day, each member's last post, and commands by name, added to what the
// store holds. Plain inputs, no Sequelize: it runs in the writer's thread too.
import { instantParam, jsonOf, jsonRows, storedInstant, together, type SqlSession } from './sql';
import { addExcluded, col, cols, COMMAND_USAGE as USAGE, GUILD_DAILY_STATS as DAYS, MEMBER_ACTIVITY as ACTIVITY, qualified } from './tables';

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
  const lastPost = col(ACTIVITY, 'lastMessageAt');
  await together(session, [
    () =>
      session.query(
        `INSERT INTO ${DAYS.name} (${cols(DAYS, 'guildId', 'day', 'messages', 'joins', 'leaves', 'commands')})
       SELECT ${days.field.guildId}, ${days.field.day}, ${days.field.messages},
         ${days.field.joins}, ${days.field.leaves}, ${days.field.commands} FROM ${days.from} WHERE true
       ON CONFLICT (${cols(DAYS, 'guildId', 'day')}) DO UPDATE SET ${addExcluded(DAYS, 'messages', 'joins', 'leaves', 'commands')}`,
        [write.days],
      ),
    () =>
      session.query(
        `INSERT INTO ${ACTIVITY.name} (${cols(ACTIVITY, 'guildId', 'userId', 'lastMessageAt')})
       SELECT ${posts.field.guildId}, ${posts.field.userId}, ${instantParam(dialect, posts.field.at)} FROM ${posts.from} WHERE true
       ON CONFLICT (${cols(ACTIVITY, 'guildId', 'userId')}) DO UPDATE SET ${lastPost} =
         CASE WHEN excluded.${lastPost} > ${qualified(ACTIVITY, 'lastMessageAt')} THEN excluded.${lastPost} ELSE ${qualified(ACTIVITY, 'lastMessageAt')} END`,
        [write.posts],
      ),
    () =>
      session.query(
        `INSERT INTO ${USAGE.name} (${cols(USAGE, 'guildId', 'command', 'count')})
       SELECT ${commands.field.guildId}, ${commands.field.command}, ${commands.field.count} FROM ${commands.from} WHERE true
       ON CONFLICT (${cols(USAGE, 'guildId', 'command')}) DO UPDATE SET ${addExcluded(USAGE, 'count')}`,
        [write.commands],
      ),
  ] as const);
}
