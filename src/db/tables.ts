// The tables written both through Sequelize models and by raw SQL (the write-behind flushes, the
// wallet upserts): their names and columns, defined once. The models take their attributes from
// here (attributesOf, src/db/columns.ts) and the SQL names its table and columns through `cols` and
// `col`, so a renamed or dropped column fails the compiler on both sides. Loads nothing: the store
// writer's thread imports it.

/** What a column holds, as both sides need it. */
export interface ColumnSpec {
  /** id: an auto-increment key; snowflake: a Discord id; text: unbounded; string: up to `size`; instant: a date and time; integer. */
  kind: 'id' | 'snowflake' | 'string' | 'text' | 'integer' | 'instant';
  /** For `string`. */
  size?: number;
  nullable?: true;
  /** Part of a primary key made of several columns. */
  key?: true;
  /** The value a row gets when none is given. */
  default?: number | 'now';
}

/** A table: its name and every column. */
export interface TableSpec<C extends string = string> {
  name: string;
  columns: Readonly<Record<C, ColumnSpec>>;
}

/** Declares a table. */
function table<C extends string>(name: string, columns: Record<C, ColumnSpec>): TableSpec<C> {
  return { name, columns };
}

const snowflake: ColumnSpec = { kind: 'snowflake' };
const counter: ColumnSpec = { kind: 'integer', default: 0 };
const name: ColumnSpec = { kind: 'string', size: 100, nullable: true };

export const USER_LEVELS = table('user_levels', {
  id: { kind: 'id' },
  userId: snowflake,
  guildId: snowflake,
  level: { kind: 'integer', default: 1 },
  xp: counter,
  totalXp: counter,
  messagesCount: counter,
  username: name,
  updatedAt: { kind: 'instant', nullable: true },
});

export const USER_CURRENCY = table('user_currency', {
  id: { kind: 'id' },
  userId: snowflake,
  guildId: snowflake,
  balance: counter,
  totalEarned: counter,
  username: name,
  lastDailyAt: { kind: 'instant', nullable: true },
  updatedAt: { kind: 'instant', nullable: true },
});

export const TRANSACTIONS = table('transactions', {
  id: { kind: 'id' },
  userId: snowflake,
  guildId: snowflake,
  type: { kind: 'string', size: 16 },
  amount: { kind: 'integer' },
  itemId: { kind: 'integer', nullable: true },
  itemName: name,
  description: { kind: 'text', nullable: true },
  actorId: { kind: 'snowflake', nullable: true },
  counterpartyId: { kind: 'snowflake', nullable: true },
  createdAt: { kind: 'instant' },
});

export const MEMBER_ACTIVITY = table('member_activity', {
  guildId: { kind: 'snowflake', key: true },
  userId: { kind: 'snowflake', key: true },
  lastMessageAt: { kind: 'instant' },
});

export const COMMAND_USAGE = table('command_usage', {
  guildId: { kind: 'snowflake', key: true },
  command: { kind: 'string', size: 32, key: true },
  count: counter,
});

export const GUILD_DAILY_STATS = table('guild_daily_stats', {
  guildId: { kind: 'snowflake', key: true },
  /** The UTC day, YYYY-MM-DD. */
  day: { kind: 'string', size: 10, key: true },
  messages: counter,
  joins: counter,
  leaves: counter,
  commands: counter,
  /** XP members earned that day. */
  xp: counter,
});

/** One column's name, quoted for SQL: `"totalXp"`. */
export function col<C extends string>(spec: TableSpec<C>, column: C): string {
  return `"${column}"`;
}

/** Column names, quoted and comma-separated: `"guildId", "userId"`. */
export function cols<C extends string>(spec: TableSpec<C>, ...columns: C[]): string {
  return columns.map((column) => col(spec, column)).join(', ');
}

/** A column with its table: `user_levels."totalXp"`. */
export function qualified<C extends string>(spec: TableSpec<C>, column: C): string {
  return `${spec.name}.${col(spec, column)}`;
}

/** An upsert's SET adding the new row's values to the stored ones: `"xp" = user_levels."xp" + excluded."xp", ...`. */
export function addExcluded<C extends string>(spec: TableSpec<C>, ...columns: C[]): string {
  return columns.map((column) => `${col(spec, column)} = ${qualified(spec, column)} + excluded.${col(spec, column)}`).join(', ');
}

/** An upsert's SET taking the new row's values: `"username" = excluded."username", ...`. */
export function setExcluded<C extends string>(spec: TableSpec<C>, ...columns: C[]): string {
  return columns.map((column) => `${col(spec, column)} = excluded.${col(spec, column)}`).join(', ');
}
