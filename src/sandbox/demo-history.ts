// A month of life in Sandbox Community, on the Discord side: members who joined, chat with a
// weekday and evening rhythm and a long tail of talkers, a spammer banned and an alt kicked, the
// bot's announcements, a roles menu whose reactions gave roles. Deterministic for (seed, anchor):
// the product applies it on every start with the anchor it stored at the demo's first start, and
// writes its own side (levels, coins, cases...) from the same record once (DEMO_HISTORY).
import { announcementEmbed } from '../shared/announcements';
import type { DemoHistory, HistoryCase, HistoryReport } from './demo-history-types';
import { CHAT_LINES } from './names';
import { SeededRandom } from './random';
import { historySnowflake, snowflakeTime } from './snowflake';
import type { GuildRecord } from './types';
import type { World } from './world';

export type { DemoHistory } from './demo-history-types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Days of history, ending at the anchor. */
export const DEMO_HISTORY_DAYS = 30;
/** Members who chat (the rest of the guild lurks), and members who joined within the month. */
const REGULARS = 34;
const NEWCOMERS = 18;
/** How much chat each UTC hour gets: quiet nights, a lunch bump, the evening peak. */
const HOUR_WEIGHTS = [3, 2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 6, 6, 6, 7, 9, 12, 14, 15, 13, 9, 5];
const GREETINGS = ['hi everyone! 👋', 'hello! a friend sent me here', 'hey all, happy to be here', 'hi! what did I miss?'];
const MORE_LINES = ['anyone watching the match?', 'new drawing in a sec', 'who wants to team up?', 'that patch broke my build lol', 'good night all'];
const ROLE_MENU = [
  { emoji: '🎮', roleName: 'Gamers', color: 0x9b59b6 },
  { emoji: '🎨', roleName: 'Artists', color: 0xe91e63 },
  { emoji: '📅', roleName: 'Event Pings', color: 0x1abc9c },
];
const ANNOUNCEMENTS = [
  { daysAgo: 27, title: 'Game night every Friday', message: 'Game night is every Friday at 20:00 UTC in the Lounge. Bring friends!', priority: 'normal' },
  { daysAgo: 20, title: 'Rules updated', message: 'Spoilers now go in spoiler tags for a week after release. See #rules.', priority: 'high' },
  { daysAgo: 13, title: 'Art contest', message: 'Post your best piece in #general before Sunday: the winner gets 500 coins.', priority: 'normal' },
  { daysAgo: 6, title: 'Maintenance tonight', message: 'The bot restarts at 22:00 UTC for an update; levels and coins are safe.', priority: 'normal' },
] as const;

/** The seed of the demo month. */
const DEMO_HISTORY_SEED = 1;

/** The demo month as the product drives it (src/features/demo-history's DemoSandbox): apply it, and what the reset control runs. */
export function demoHistoryControl(world: World) {
  return {
    guildId: world.demo.guildId,
    seed: DEMO_HISTORY_SEED,
    apply: (anchorMs: number) => applyDemoHistory(world, { seed: DEMO_HISTORY_SEED, anchorMs }),
    onReset: (reset: NonNullable<World['demoReset']>) => {
      world.demoReset = reset;
    },
  };
}

/**
 * Applies the history ending at `anchorMs` to the world (the demo guild's chat, joins, bans, roles
 * menu) and returns it. The same seed and anchor again changes nothing; another anchor first takes
 * the earlier history's messages away (a reset). No gateway event goes out for the past.
 */
export function applyDemoHistory(world: World, options: { seed: number; anchorMs: number }): DemoHistory {
  const applied = world.demoHistory;
  if (applied && applied.history.seed === options.seed && applied.history.anchorMs === options.anchorMs) return applied.history;
  if (applied) for (const [channelId, ids] of applied.messageIds) world.messages.deleteBulk(channelId, ids);
  const guild = world.guilds.get(world.demo.guildId);
  if (!guild) throw new Error('the demo guild is missing');
  const crowd = applied?.crowd ?? crowdOf(world, guild);
  const history = planHistory(world, guild, crowd, options);
  world.demoHistory = { history, crowd, messageIds: applyToWorld(world, guild, history) };
  return history;
}

/** The guild's plain members in join order: the demo's named accounts and the bot are not crowd. */
function crowdOf(world: World, guild: GuildRecord): string[] {
  const { ownerUserId, adminUserId, plainMemberId } = world.demo;
  const named = new Set([ownerUserId, adminUserId, plainMemberId, world.botUserId]);
  const staff = new Set([world.demo.roles.moderator, world.demo.roles.admin, world.demo.roles.aboveBot]);
  return [...guild.members.values()]
    .filter((member) => !named.has(member.userId) && !world.users.get(member.userId)?.bot && !member.roleIds.some((id) => staff.has(id)))
    .map((member) => member.userId);
}

/** The name a member is shown with. */
function nameOf(world: World, userId: string): string {
  const user = world.users.get(userId);
  return user?.globalName ?? user?.username ?? userId;
}

/** Whom the history is about, by role in it: fixed by the crowd's order, so a reset picks the same people. */
function castOf(world: World, guild: GuildRecord, crowd: string[]) {
  const moderatorId = [...guild.members.values()].find((m) => m.roleIds.includes(world.demo.roles.moderator))?.userId ?? world.demo.adminUserId;
  const regulars = crowd.slice(0, REGULARS);
  const newcomers = crowd.slice(REGULARS, REGULARS + NEWCOMERS);
  const at = (list: string[], index: number) => list[index % Math.max(1, list.length)] ?? world.demo.plainMemberId;
  return {
    moderatorId,
    adminId: world.demo.adminUserId,
    // The talkers, most talkative first: the admin and the moderator chat a little too.
    talkers: [...regulars.slice(0, 3), moderatorId, ...regulars.slice(3, 12), world.demo.adminUserId, ...regulars.slice(12), world.demo.plainMemberId],
    regulars,
    newcomers,
    spammer: at(newcomers, 0),
    alt: at(newcomers, 1),
    rude: at(regulars, 9),
    at: (index: number) => at(regulars, index),
  };
}

type Cast = ReturnType<typeof castOf>;

/** Plans the month: every choice of who comes from fixed streams of the seed, the anchor only places it in time. */
function planHistory(world: World, guild: GuildRecord, crowd: string[], options: { seed: number; anchorMs: number }): DemoHistory {
  const cast = castOf(world, guild, crowd);
  const { channels } = world.demo;
  const today = Math.floor(options.anchorMs / DAY) * DAY;
  const dayStart = (daysAgo: number) => today - daysAgo * DAY;
  const evening = (daysAgo: number, hour: number) => Math.min(options.anchorMs - HOUR, dayStart(daysAgo) + hour * HOUR);
  const messages: DemoHistory['messages'] = [];
  const say = (channelId: string, authorId: string, content: string, at: number) => {
    const message = { id: historySnowflake(at, messages.length), channelId, authorId, content, at };
    messages.push(message);
    return message;
  };

  // Joins, each with a hello in #welcome; the spammer's and the alt's days are fixed.
  const joinRandom = new SeededRandom(options.seed * 7 + 1);
  const joins = cast.newcomers.map((userId, index) => {
    const daysAgo = userId === cast.spammer ? 18 : userId === cast.alt ? 9 : joinRandom.int(1, DEMO_HISTORY_DAYS - 1);
    return {
      userId,
      at: dayStart(daysAgo) + joinRandom.int(9, 22) * HOUR + joinRandom.int(0, 59) * 60_000,
      greeting: GREETINGS[index % GREETINGS.length] ?? '',
    };
  });
  for (const join of joins) say(channels.welcome, join.userId, join.greeting, join.at + 4 * 60_000);

  // Chat: more at weekends and in the evening, growing a little over the month, a long tail of talkers.
  const chat = new SeededRandom(options.seed * 7 + 2);
  const weights = cast.talkers.map((_, index) => 1 / (index + 1) ** 0.9);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const hourTotal = HOUR_WEIGHTS.reduce((sum, weight) => sum + weight, 0);
  const pickWeighted = (values: number[], sum: number) => {
    let roll = chat.next() * sum;
    for (const [index, weight] of values.entries()) if ((roll -= weight) < 0) return index;
    return values.length - 1;
  };
  for (let daysAgo = DEMO_HISTORY_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const weekday = new Date(dayStart(daysAgo)).getUTCDay();
    const rhythm = (weekday === 0 || weekday === 6 ? 1.35 : weekday === 5 ? 1.15 : 1) * (0.85 + (0.3 * (DEMO_HISTORY_DAYS - daysAgo)) / DEMO_HISTORY_DAYS);
    const count = Math.round(22 * rhythm * (0.75 + chat.next() * 0.5));
    for (let i = 0; i < count; i++) {
      const at = dayStart(daysAgo) + pickWeighted(HOUR_WEIGHTS, hourTotal) * HOUR + chat.int(0, HOUR - 1);
      const author = cast.talkers[pickWeighted(weights, total)] ?? cast.adminId;
      const line = chat.next() < 0.8 ? chat.pick(CHAT_LINES) : chat.pick(MORE_LINES);
      if (at < options.anchorMs) say(channels.general, author, line, at);
    }
  }

  const { cases, reports } = moderationOf(world, cast, say, evening);
  const reactionRoles = rolesMenuOf(world, guild, cast, joins, options.seed, evening, options.anchorMs);
  const announcements = ANNOUNCEMENTS.map((a, index) => {
    const at = evening(a.daysAgo, 17) + index * 60_000;
    return {
      ...a,
      channelId: channels.announcements,
      messageId: historySnowflake(at, 4000 + index),
      at,
      byId: cast.adminId,
      byName: nameOf(world, cast.adminId),
    };
  });
  const commandRandom = new SeededRandom(options.seed * 7 + 4);
  const commands: DemoHistory['commands'] = [];
  for (const message of messages) {
    if (commandRandom.next() < 0.12) {
      commands.push({ name: commandRandom.pick(['rank', 'rank', 'balance', 'leaderboard', 'shop', 'buy']), userId: message.authorId, at: message.at + 30_000 });
    }
  }
  messages.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  const everyone = new Set([...cast.talkers, ...cast.newcomers, ...cases.map((c) => c.moderatorId)]);
  return {
    guildId: guild.id,
    seed: options.seed,
    anchorMs: options.anchorMs,
    people: [...everyone].map((userId) => ({ userId, name: nameOf(world, userId) })),
    messages,
    joins: joins.map(({ userId, at }) => ({ userId, at })),
    commands: commands.filter((command) => command.at < options.anchorMs),
    cases,
    reports,
    announcements,
    reactionRoles,
  };
}

type Say = (channelId: string, authorId: string, content: string, at: number) => { id: string; channelId: string; content: string };

/** The month's moderation: warnings, a timeout, the spammer banned, the alt kicked; reports, three still open. */
function moderationOf(world: World, cast: Cast, say: Say, evening: (daysAgo: number, hour: number) => number) {
  const { general } = world.demo.channels;
  const staff = (id: string) => ({ moderatorId: id, moderatorName: nameOf(world, id) });
  const target = (id: string) => ({ targetId: id, targetName: nameOf(world, id) });
  say(general, cast.spammer, 'FREE NITRO!!! claim at discord-gift.example.com before it runs out', evening(18, 20));
  say(general, cast.spammer, 'FREE NITRO!!! claim at discord-gift.example.com', evening(18, 20) + 60_000);
  const rude = say(general, cast.rude, 'nobody asked, newbie', evening(12, 19));
  const spoiler = say(general, cast.at(7), 'the finale twist: the captain was the traitor all along', evening(16, 21));
  const invite = say(general, cast.at(15), 'join my server discord.gg/freeroles123 free roles for everyone', evening(2, 20));
  const cases: HistoryCase[] = [
    { action: 'warn', ...target(cast.rude), ...staff(cast.moderatorId), reason: 'Rude to a new member in #general', at: evening(25, 19), duration: null },
    { action: 'warn', ...target(cast.at(12)), ...staff(cast.moderatorId), reason: 'Off-topic spam', at: evening(21, 18), duration: null },
    { action: 'ban', ...target(cast.spammer), ...staff(cast.moderatorId), reason: 'Scam links (free Nitro)', at: evening(18, 20) + 9 * 60_000, duration: null },
    { action: 'warn', ...target(cast.rude), ...staff(cast.adminId), reason: 'Insulting another member', at: evening(12, 19) + 5 * 60_000, duration: null },
    {
      action: 'timeout',
      ...target(cast.rude),
      ...staff(cast.moderatorId),
      reason: 'Second warning in two weeks',
      at: evening(12, 19) + 12 * 60_000,
      duration: '1h',
    },
    { action: 'kick', ...target(cast.alt), ...staff(cast.adminId), reason: 'Alt account of a banned member', at: evening(7, 15), duration: null },
    { action: 'warn', ...target(cast.at(5)), ...staff(cast.moderatorId), reason: 'Unmarked spoilers', at: evening(4, 21), duration: null },
  ];
  const reporter = (id: string) => ({ reporterId: id, reporterName: nameOf(world, id) });
  const reports: HistoryReport[] = [
    { ...reporter(cast.at(3)), ...target(cast.at(7)), reason: 'Spoilers', at: spoilerAt(spoiler), message: spoiler, dismissed: null },
    { ...reporter(cast.at(2)), ...target(cast.rude), reason: 'Rude to new members', at: evening(12, 19) + 2 * 60_000, message: rude, dismissed: null },
    { ...reporter(cast.at(6)), ...target(cast.at(15)), reason: 'Posting invite links', at: evening(2, 20) + 3 * 60_000, message: invite, dismissed: null },
    { ...reporter(cast.at(11)), ...target(cast.at(14)), reason: 'Keeps pinging me for no reason', at: evening(1, 18), message: null, dismissed: null },
  ];
  // The spoiler report was looked at and dismissed the next day (a spoiler tag was added).
  const first = reports[0];
  if (first) first.dismissed = { byId: cast.moderatorId, at: first.at + DAY };
  return { cases, reports: reports.map((report) => ({ ...report, message: report.message && { ...report.message } })) };
}

/** A report comes a few minutes after the message it is about. */
function spoilerAt(message: { id: string }): number {
  return snowflakeTime(message.id) + 6 * 60_000;
}

/** The roles menu: the bot's message in #welcome, its three roles, and who picked (and dropped) what when. */
function rolesMenuOf(
  world: World,
  guild: GuildRecord,
  cast: Cast,
  joins: { userId: string; at: number }[],
  seed: number,
  evening: (daysAgo: number, hour: number) => number,
  anchorMs: number,
): DemoHistory['reactionRoles'] {
  const at = evening(28, 16);
  const entries = ROLE_MENU.map((item, index) => ({ emoji: item.emoji, roleName: item.roleName, roleId: roleIdOf(guild, index) }));
  const random = new SeededRandom(seed * 7 + 3);
  const events: DemoHistory['reactionRoles']['events'] = [];
  const joinedAt = new Map(joins.map((join) => [join.userId, join.at]));
  const removed = new Set([cast.spammer, cast.alt]);
  for (const userId of [...cast.regulars, ...cast.newcomers].filter((id) => !removed.has(id))) {
    // Decisions first, from the stream alone; then times (the stream stays the same for any anchor).
    const picks = entries.filter(() => random.next() < 0.35);
    const drops = picks.map(() => random.next() < 0.15);
    const delays = picks.map(() => random.int(1, 20 * 24) * HOUR + random.int(0, 59) * 60_000);
    const from = Math.max(at, joinedAt.get(userId) ?? at);
    picks.forEach((entry, index) => {
      const added = from + (delays[index] ?? HOUR);
      if (added >= anchorMs) return;
      events.push({ userId, emoji: entry.emoji, action: 'add', at: added });
      const dropped = added + 3 * DAY;
      if (drops[index] && dropped < anchorMs) events.push({ userId, emoji: entry.emoji, action: 'remove', at: dropped });
    });
  }
  events.sort((a, b) => a.at - b.at);
  return { channelId: world.demo.channels.welcome, messageId: historySnowflake(at, 4090), createdById: cast.adminId, at, entries, events };
}

/** The id of the roles menu's `index`-th role: made from the guild's id, the same on every start. */
function roleIdOf(guild: GuildRecord, index: number): string {
  return historySnowflake(snowflakeTime(guild.id) + 1 + index, 4000 + index);
}

/**
 * Makes the history true in the world: the roles menu's roles (below the bot), join dates, the ban
 * and the kick, the messages and the menu's reactions with the roles they gave. Returns the ids of
 * the messages made, by channel.
 */
function applyToWorld(world: World, guild: GuildRecord, history: DemoHistory): Map<string, string[]> {
  const { reactionRoles: menu } = history;
  if (!guild.roles.has(menu.entries[0]?.roleId ?? '')) {
    // The menu's roles go above Member, so the bot (and everything above it) moves up.
    for (const role of guild.roles.values()) if (role.position >= 3) role.position += menu.entries.length;
    menu.entries.forEach((entry, index) => {
      const color = ROLE_MENU[index]?.color ?? 0;
      guild.roles.set(entry.roleId, {
        id: entry.roleId,
        name: entry.roleName,
        permissions: 0n,
        position: 3 + index,
        color,
        hoist: false,
        mentionable: true,
        botId: null,
      });
    });
  }
  for (const join of history.joins) {
    const member = guild.members.get(join.userId);
    if (member) member.joinedAt = new Date(join.at).toISOString();
  }
  for (const entry of history.cases) {
    if (entry.action !== 'ban' && entry.action !== 'kick') continue;
    guild.members.delete(entry.targetId);
    if (entry.action === 'ban') guild.bans.set(entry.targetId, { userId: entry.targetId, reason: entry.reason });
  }
  const made = new Map<string, string[]>();
  const keep = (channelId: string, id: string) => made.set(channelId, [...(made.get(channelId) ?? []), id]);
  const posts = [
    ...history.messages.map((m) => ({ ...m, embeds: [] as ReturnType<typeof announcementEmbed>[] })),
    ...history.announcements.map((a) => ({
      id: a.messageId,
      channelId: a.channelId,
      authorId: world.botUserId,
      content: '',
      at: a.at,
      embeds: [announcementEmbed(a)],
    })),
    { id: menu.messageId, channelId: menu.channelId, authorId: world.botUserId, content: menuText(menu), at: menu.at, embeds: [] },
  ].sort((a, b) => a.at - b.at);
  for (const post of posts) {
    world.messages.create(post.channelId, { id: post.id, authorId: post.authorId, content: post.content, embeds: post.embeds, timestamp: post.at });
    keep(post.channelId, post.id);
  }
  const message = world.messages.get(menu.messageId);
  if (message) {
    const holders = new Map(menu.entries.map((entry) => [entry.emoji, new Set<string>([world.botUserId])]));
    for (const event of menu.events) holders.get(event.emoji)?.[event.action === 'add' ? 'add' : 'delete'](event.userId);
    for (const entry of menu.entries) {
      const userIds = holders.get(entry.emoji) ?? new Set<string>();
      message.reactions.set(entry.emoji, { emoji: { id: null, name: entry.emoji, animated: false }, userIds });
      for (const userId of userIds) {
        const member = guild.members.get(userId);
        if (member && userId !== world.botUserId && !member.roleIds.includes(entry.roleId)) member.roleIds.push(entry.roleId);
      }
    }
  }
  return made;
}

/** The roles menu's text. */
function menuText(menu: DemoHistory['reactionRoles']): string {
  return ['**Pick your roles** (react below):', ...menu.entries.map((entry) => `${entry.emoji} ${entry.roleName}`)].join('\n');
}
