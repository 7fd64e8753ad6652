// What the demo history (demo-history.ts) made on the Discord side: plain data the product reads to
// write its own side (levels, coins, cases, reports...) so both tell the same month.

/** A moderation action of the history, as the product records its case. */
export interface HistoryCase {
  action: 'warn' | 'timeout' | 'kick' | 'ban';
  targetId: string;
  targetName: string;
  moderatorId: string;
  moderatorName: string;
  reason: string;
  at: number;
  /** A timeout's length (a key of the product's DURATIONS). */
  duration: '1h' | '1d' | null;
}

/** A member's report of another (and of one message, when given). */
export interface HistoryReport {
  reporterId: string;
  reporterName: string;
  targetId: string;
  targetName: string;
  reason: string;
  at: number;
  message: { id: string; channelId: string; content: string } | null;
  /** A moderator dismissed it later (by this moderator, at this time); open otherwise. */
  dismissed: { byId: string; at: number } | null;
}

/** The demo month on the Discord side, deterministic for (seed, anchor). */
export interface DemoHistory {
  guildId: string;
  seed: number;
  /** The history ends here (epoch ms): the product's clock at the demo's first start (or its last reset). */
  anchorMs: number;
  /** The members who take part, with the names the product writes beside their ids. */
  people: { userId: string; name: string }[];
  /** Chat messages, oldest first (each in its channel of the sandbox, made with these ids). */
  messages: { id: string; channelId: string; authorId: string; content: string; at: number }[];
  /** Members who joined within the month. */
  joins: { userId: string; at: number }[];
  /** Slash commands members ran, by name. */
  commands: { name: string; userId: string; at: number }[];
  cases: HistoryCase[];
  reports: HistoryReport[];
  /** Announcements the bot posted in #announcements. */
  announcements: {
    channelId: string;
    messageId: string;
    title: string;
    message: string;
    priority: 'normal' | 'high';
    at: number;
    byId: string;
    byName: string;
  }[];
  /** The roles menu: a message of the bot in #welcome whose reactions give roles, and what members did with it. */
  reactionRoles: {
    channelId: string;
    messageId: string;
    createdById: string;
    at: number;
    entries: { emoji: string; roleId: string; roleName: string }[];
    events: { userId: string; emoji: string; action: 'add' | 'remove'; at: number }[];
  };
}

/** A history applied to the world: what undoing it removes. */
export interface AppliedDemoHistory {
  history: DemoHistory;
  /** The messages it made, by channel. */
  messageIds: Map<string, string[]>;
  /** The members it chose its people from, in join order (kept: a reset must choose the same ones after the ban and the kick). */
  crowd: string[];
}

/** What a reset of the demo made: the month's end and how much of each it wrote. */
export interface DemoResetOutcome {
  anchor: string;
  messages: number;
  members: number;
  cases: number;
  reports: number;
  purchases: number;
  ms: number;
}
