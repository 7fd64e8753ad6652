import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
  OverwriteType,
  PermissionFlagsBits as P,
} from 'discord-api-types/v10';
import { systemClock, type Clock } from '../core/clock';
import { DEMO_LOGIN_DEFAULTS } from '../shared/demo-login';
import { CHAT_LINES, makeName } from './names';
import { SeededRandom } from './random';
import { SnowflakeFactory } from './snowflake';
import type { ChannelRecord, DemoIds, GuildRecord, RoleRecord } from './types';
import { World } from './world';
import { CHANNEL_DEFAULTS } from './world-structure';

/** What the demo world is built from. */
export interface SeedOptions {
  /** Same seed, same world (ids, names, history). */
  seed: number;
  /** Members of 'Sandbox Community', the bot and the demo users included. */
  memberCount: number;
  /** The token the bot must present. */
  botToken: string;
  /** The world's time (default: the machine's). */
  clock?: Clock;
  /** Messages kept per channel (default MESSAGES_KEPT_PER_CHANNEL). */
  messagesKeptPerChannel?: number;
}

const DAY = 86_400_000;

/** What @everyone may do in the demo guilds. */
export const EVERYONE_PERMISSIONS =
  P.ViewChannel |
  P.SendMessages |
  P.ReadMessageHistory |
  P.AddReactions |
  P.EmbedLinks |
  P.AttachFiles |
  P.UseApplicationCommands |
  P.Connect |
  P.Speak |
  P.CreateInstantInvite |
  P.ChangeNickname;

/** What the bot's managed role holds: moderation and messaging, but not Administrator. */
export const BOT_PERMISSIONS =
  P.ManageRoles |
  P.KickMembers |
  P.BanMembers |
  P.ModerateMembers |
  P.ManageMessages |
  P.ManageNicknames |
  P.ViewAuditLog |
  P.ViewChannel |
  P.SendMessages |
  P.EmbedLinks |
  P.AddReactions |
  P.ReadMessageHistory;

type Builder = { world: World; ids: SnowflakeFactory; rng: SeededRandom; clock: number };

function newGuild(b: Builder, name: string, ownerId: string, everyone: bigint): GuildRecord {
  const id = b.ids.nextSeeded(1000);
  const guild: GuildRecord = {
    id,
    name,
    icon: null,
    ownerId,
    description: null,
    roles: new Map(),
    channels: new Map(),
    members: new Map(),
    bans: new Map(),
    emojis: new Map(),
    auditLog: [],
    voice: new Map(),
    afkChannelId: null,
    afkTimeout: 300,
    systemChannelId: null,
    rulesChannelId: null,
    verificationLevel: GuildVerificationLevel.Low,
    defaultMessageNotifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicitContentFilter: GuildExplicitContentFilter.AllMembers,
    preferredLocale: Locale.EnglishUS,
    systemChannelFlags: GuildSystemChannelFlags.SuppressJoinNotificationReplies,
  };
  guild.roles.set(id, { id, name: '@everyone', permissions: everyone, position: 0, color: 0, hoist: false, mentionable: false, botId: null });
  return guild;
}

function addRole(b: Builder, guild: GuildRecord, role: Omit<RoleRecord, 'id' | 'hoist' | 'mentionable' | 'botId'> & { botId?: string }): string {
  const id = b.ids.nextSeeded();
  guild.roles.set(id, { id, hoist: role.color !== 0, mentionable: false, ...role, botId: role.botId ?? null });
  return id;
}

function addChannel(b: Builder, guild: GuildRecord, channel: Partial<ChannelRecord> & Pick<ChannelRecord, 'name' | 'type'>): string {
  const id = b.ids.nextSeeded();
  guild.channels.set(id, {
    id,
    guildId: guild.id,
    position: guild.channels.size,
    topic: null,
    parentId: null,
    overwrites: [],
    lastMessageId: null,
    ...CHANNEL_DEFAULTS,
    ...channel,
  });
  return id;
}

function addPerson(b: Builder, username: string, globalName: string): string {
  const id = b.ids.nextSeeded(60_000);
  b.world.addUser({ id, username, globalName, avatar: b.rng.hex(32), bot: false });
  return id;
}

function join(b: Builder, guild: GuildRecord, userId: string, roleIds: string[]): void {
  b.clock += b.rng.int(60_000, 20 * 60_000);
  b.world.addMember(guild.id, { id: userId, username: '', roleIds, joinedAt: new Date(b.clock).toISOString() });
}

function addCrowd(b: Builder, guild: GuildRecord, count: number, roles: (rng: SeededRandom) => string[]): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { username, globalName } = makeName(b.rng);
    const id = b.ids.nextSeeded(30_000);
    b.world.addUser({ id, username: `${username}${i}`, globalName, avatar: b.rng.next() < 0.6 ? b.rng.hex(32) : null, bot: false });
    join(b, guild, id, roles(b.rng));
    ids.push(id);
  }
  return ids;
}

/** Builds the demo world: 'Sandbox Community' (bot in), the demo admin's own guild (no bot), and a third guild with the bot. */
export function seedWorld(options: SeedOptions): World {
  const base = Date.UTC(2023, 0, 1) + (options.seed % 10_000) * 60_000;
  const clock = options.clock ?? systemClock;
  const ids = new SnowflakeFactory(base, () => clock.ms());
  const world = new World(ids, options.botToken, clock, options.messagesKeptPerChannel);
  const b: Builder = { world, ids, rng: new SeededRandom(options.seed), clock: base + 30 * DAY };

  const botId = ids.nextSeeded();
  world.addUser({ id: botId, username: 'AwesomeBot', globalName: null, discriminator: '4821', avatar: b.rng.hex(32), bot: true });
  world.botUserId = botId;
  const ownerUserId = addPerson(b, 'community_owner', 'Sam (Owner)');
  // The demo admin is the demo login's own account: the /test-auth form's default identity.
  const adminUserId = DEMO_LOGIN_DEFAULTS.id;
  world.addUser({ id: adminUserId, username: DEMO_LOGIN_DEFAULTS.username, globalName: 'Demo Admin', avatar: b.rng.hex(32), bot: false });
  world.demoAccounts.add(adminUserId);
  const plainMemberId = addPerson(b, 'plain_pat', 'Pat');
  const otherAdminUserId = addPerson(b, 'other_admin', 'Riley (Other Community)');
  const moderatorId = addPerson(b, 'mod_morgan', 'Morgan (Mod)');

  const g = newGuild(b, 'Sandbox Community', ownerUserId, EVERYONE_PERMISSIONS);
  g.description = 'The demo community of the sandbox Discord.';
  const roles = {
    verified: addRole(b, g, { name: 'Verified', permissions: 0n, position: 1, color: 0 }),
    member: addRole(b, g, { name: 'Member', permissions: 0n, position: 2, color: 0x3498db }),
    moderator: addRole(b, g, {
      name: 'Moderator',
      permissions: P.ManageGuild | P.KickMembers | P.BanMembers | P.ModerateMembers | P.ManageMessages | P.ViewAuditLog,
      position: 3,
      color: 0x2ecc71,
    }),
    bot: addRole(b, g, { name: 'AwesomeBot', permissions: BOT_PERMISSIONS, position: 4, color: 0, botId }),
    aboveBot: addRole(b, g, { name: 'Senior Staff', permissions: 0n, position: 5, color: 0xe67e22 }),
    admin: addRole(b, g, { name: 'Admin', permissions: P.Administrator, position: 6, color: 0xe74c3c }),
  };
  const info = addChannel(b, g, { name: 'Information', type: ChannelType.GuildCategory });
  const community = addChannel(b, g, { name: 'Community', type: ChannelType.GuildCategory });
  const staff = addChannel(b, g, { name: 'Staff', type: ChannelType.GuildCategory });
  const readOnly = [
    { id: g.id, type: OverwriteType.Role, allow: 0n, deny: P.SendMessages },
    { id: roles.bot, type: OverwriteType.Role, allow: P.SendMessages, deny: 0n },
  ];
  const channels = {
    welcome: addChannel(b, g, { name: 'welcome', type: ChannelType.GuildText, parentId: info, topic: 'Say hi to new members!' }),
    rules: addChannel(b, g, { name: 'rules', type: ChannelType.GuildText, parentId: info, topic: 'Read before posting', overwrites: readOnly }),
    announcements: addChannel(b, g, { name: 'announcements', type: ChannelType.GuildText, parentId: info, overwrites: readOnly }),
    general: addChannel(b, g, { name: 'general', type: ChannelType.GuildText, parentId: community, topic: 'Anything goes (within the rules)' }),
    modLog: addChannel(b, g, {
      name: 'mod-log',
      type: ChannelType.GuildText,
      parentId: staff,
      overwrites: [
        { id: g.id, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel },
        { id: roles.moderator, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
        { id: roles.bot, type: OverwriteType.Role, allow: P.ViewChannel | P.SendMessages, deny: 0n },
      ],
    }),
    voice: addChannel(b, g, { name: 'Lounge', type: ChannelType.GuildVoice, parentId: community }),
    afk: addChannel(b, g, { name: 'AFK', type: ChannelType.GuildVoice, parentId: community }),
    // Only staff may connect here: a member without Connect is refused.
    staffVoice: addChannel(b, g, {
      name: 'Staff Room',
      type: ChannelType.GuildVoice,
      parentId: staff,
      overwrites: [
        { id: g.id, type: OverwriteType.Role, allow: 0n, deny: P.Connect },
        { id: roles.moderator, type: OverwriteType.Role, allow: P.Connect, deny: 0n },
      ],
    }),
  };
  for (const [name, animated] of [
    ['sandbox_wave', false],
    ['sandbox_star', false],
    ['party_parrot', true],
  ] as const) {
    const id = ids.nextSeeded();
    g.emojis.set(id, { id, name, animated });
  }
  g.systemChannelId = channels.welcome;
  g.rulesChannelId = channels.rules;
  g.afkChannelId = channels.afk;
  world.addGuild(g);
  join(b, g, ownerUserId, []);
  join(b, g, botId, [roles.bot]);
  join(b, g, adminUserId, [roles.admin, roles.member, roles.verified]);
  join(b, g, moderatorId, [roles.moderator, roles.member, roles.verified]);
  join(b, g, plainMemberId, []);
  const crowd = addCrowd(b, g, Math.max(0, options.memberCount - g.members.size), (rng) => {
    const picked: string[] = [];
    if (rng.next() < 0.7) picked.push(roles.verified);
    if (rng.next() < 0.6) picked.push(roles.member);
    if (rng.next() < 0.01) picked.push(roles.aboveBot);
    return picked;
  });

  const second = newGuild(b, "Demo Admin's Workshop", adminUserId, EVERYONE_PERMISSIONS);
  addRole(b, second, { name: 'Helpers', permissions: P.ManageMessages, position: 1, color: 0x9b59b6 });
  addChannel(b, second, { name: 'general', type: ChannelType.GuildText });
  addChannel(b, second, { name: 'ideas', type: ChannelType.GuildText });
  world.addGuild(second);
  join(b, second, adminUserId, []);
  addCrowd(b, second, 11, () => []);

  const third = newGuild(b, 'Other Community', otherAdminUserId, EVERYONE_PERMISSIONS);
  const thirdBotRole = addRole(b, third, { name: 'AwesomeBot', permissions: BOT_PERMISSIONS, position: 1, color: 0, botId });
  const thirdAdmin = addRole(b, third, { name: 'Admin', permissions: P.Administrator, position: 2, color: 0xe74c3c });
  const thirdGeneral = addChannel(b, third, { name: 'general', type: ChannelType.GuildText });
  addChannel(b, third, { name: 'mod-log', type: ChannelType.GuildText });
  world.addGuild(third);
  join(b, third, otherAdminUserId, [thirdAdmin]);
  join(b, third, botId, [thirdBotRole]);
  join(b, third, adminUserId, []);
  join(b, third, plainMemberId, []);
  addCrowd(b, third, 20, () => []);

  seedHistory(b, channels, ownerUserId, adminUserId, crowd, thirdGeneral);
  world.demo = {
    guildId: g.id,
    secondGuildId: second.id,
    thirdGuildId: third.id,
    ownerUserId,
    adminUserId,
    plainMemberId,
    otherAdminUserId,
    channels,
    roles,
  } satisfies DemoIds;
  return world;
}

function seedHistory(b: Builder, channels: DemoIds['channels'], ownerId: string, adminId: string, crowd: string[], otherGeneral: string): void {
  const post = (channelId: string, authorId: string, content: string) => {
    b.clock += b.rng.int(30_000, 3 * 3_600_000);
    b.world.messages.create(channelId, { authorId, content, timestamp: b.clock });
  };
  post(channels.rules, ownerId, '**Rules**\n1. Be kind.\n2. No spam.\n3. Keep it on topic.\n4. Have fun!');
  post(channels.announcements, adminId, 'Welcome to Sandbox Community! Events every Friday.');
  post(channels.welcome, ownerId, 'Welcome! Introduce yourself in #general.');
  for (let i = 0; i < 40 && crowd.length > 0; i++) post(channels.general, b.rng.pick(crowd), b.rng.pick(CHAT_LINES));
  post(otherGeneral, ownerId === adminId ? ownerId : adminId, 'hello from the other side');
}
