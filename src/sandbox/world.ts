// The sandbox's Discord as it changes: members joining, changing, leaving, banned and unbanned,
// voice and boosts, the bot added to a guild, and the demo login's accounts. Each change emits the
// gateway dispatch Discord would send and, for moderation, an audit-log entry. The records and the
// bus live in world-state.ts; channel messages, DMs and channels and roles in their own stores,
// which the World composes.
import type { AppliedDemoHistory, DemoResetOutcome } from './demo-history-types';
import { AuditLogEvent, GatewayDispatchEvents, MessageType, type APIAuditLogChange } from 'discord-api-types/v10';
import { systemClock, type Clock } from '../core/clock';
import { recordAudit, roleDiff, type ActionContext } from './audit-log';
import { CommandStore } from './commands';
import { DirectMessageStore } from './dms';
import { InviteStore } from './invites';
import { MessageStore } from './messages';
import { presentGatewayGuild, presentGuildCreate, presentVoiceState } from './presenters-guild';
import { presentMember, presentUserById } from './presenters';
import type { SnowflakeFactory } from './snowflake';
import type { DemoIds, MemberPatch, MemberRecord, NewMemberInput, RoleRecord, UserRecord, VoicePatch, VoiceStateRecord } from './types';
import { ThreadStore } from './threads';
import { WebhookStore } from './webhooks';
import { GuildStructure } from './world-structure';
import { WorldState } from './world-state';

/** The demo login asked for an id that belongs to a sandbox user it did not make. */
export class DemoAccountRefused extends Error {
  override name = 'DemoAccountRefused';
}

/**
 * The sandbox's in-memory Discord: users, guilds, members, messages, commands. Every mutation emits the
 * gateway dispatch Discord would send, on `events` ('dispatch'). Permission checks live in the REST layer.
 */
export class World extends WorldState {
  /** Channel messages and reactions. */
  readonly messages: MessageStore;
  /** Direct messages between the bot and users. */
  readonly dms: DirectMessageStore;
  /** Channels and roles changing at run time. */
  readonly structure: GuildStructure;
  /** Registered application commands. */
  readonly commands = new CommandStore();
  /** Threads and their members. */
  readonly threads: ThreadStore;
  /** Channel webhooks. */
  readonly webhooks = new WebhookStore(this);
  /** Guild invites. */
  readonly invites = new InviteStore(this);
  /** Users the demo login may sign in as: the seeded demo admin and the accounts it created. */
  readonly demoAccounts = new Set<string>();
  private demoIds: DemoIds | null = null;
  /** The demo month applied to the demo guild (demo-history.ts), if any. */
  demoHistory: AppliedDemoHistory | null = null;
  /**
   * What POST /_sandbox/demo/reset runs: set by the product that applied the demo history (it wipes
   * its side of the demo guild and makes the month anew); null without one.
   */
  demoReset: (() => Promise<DemoResetOutcome>) | null = null;

  /**
   * `snowflakes` makes every id; `botToken` is what the bot must present; `clock` is the world's
   * time; `messagesKeptPerChannel` bounds each channel's history (MESSAGES_KEPT_PER_CHANNEL).
   */
  constructor(snowflakes: SnowflakeFactory, botToken: string, clock: Clock = systemClock, messagesKeptPerChannel?: number) {
    super(snowflakes, botToken, clock);
    this.messages = new MessageStore(this, messagesKeptPerChannel);
    this.dms = new DirectMessageStore(this, this.messages.keptPerChannel);
    this.structure = new GuildStructure(this);
    this.threads = new ThreadStore(this);
    this.messages.threads = this.threads;
  }

  /** Ids of the demo guilds, users, channels and roles (set once by the seed). */
  get demo(): DemoIds {
    if (!this.demoIds) throw new Error('the demo world is not seeded');
    return this.demoIds;
  }

  set demo(ids: DemoIds) {
    this.demoIds = ids;
  }

  /** A member joins (GUILD_MEMBER_ADD). Re-joining an existing member just returns it. */
  addMember(guildId: string, input: NewMemberInput): MemberRecord {
    const guild = this.requireGuild(guildId);
    const user =
      (input.id ? this.users.get(input.id) : undefined) ??
      this.addUser({
        ...(input.id ? { id: input.id } : {}),
        username: input.username,
        globalName: input.globalName ?? null,
        ...(input.discriminator ? { discriminator: input.discriminator } : {}),
        avatar: input.avatar ?? null,
        bot: false,
      });
    const existing = guild.members.get(user.id);
    if (existing) return existing;
    const member: MemberRecord = {
      userId: user.id,
      nick: null,
      roleIds: (input.roleIds ?? []).filter((id) => guild.roles.has(id) && id !== guild.id),
      joinedAt: input.joinedAt ?? this.clock.now().toISOString(),
      communicationDisabledUntil: null,
      mute: false,
      deaf: false,
      premiumSince: null,
    };
    guild.members.set(user.id, member);
    this.emit(guildId, { t: GatewayDispatchEvents.GuildMemberAdd, d: { ...presentMember(this, member), guild_id: guildId } });
    return member;
  }

  /** A member leaves or is kicked (GUILD_MEMBER_REMOVE; a kick with an actor also logs MEMBER_KICK). */
  removeMember(guildId: string, userId: string, context: ActionContext = {}): boolean {
    const guild = this.requireGuild(guildId);
    if (!guild.members.has(userId)) return false;
    if (guild.voice.has(userId)) this.updateVoiceState(guildId, userId, { channelId: null });
    guild.members.delete(userId);
    this.emit(guildId, { t: GatewayDispatchEvents.GuildMemberRemove, d: { guild_id: guildId, user: presentUserById(this, userId) } });
    if (context.actorId) recordAudit(this, guildId, AuditLogEvent.MemberKick, userId, context, []);
    return true;
  }

  /** Changes a member's nick, roles or timeout (GUILD_MEMBER_UPDATE plus an audit entry). */
  updateMember(guildId: string, userId: string, patch: MemberPatch, context: ActionContext = {}): MemberRecord {
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`unknown member ${userId}`);
    const changes: APIAuditLogChange[] = [];
    if (patch.nick !== undefined && patch.nick !== member.nick) {
      changes.push({ key: 'nick', old_value: member.nick ?? undefined, new_value: patch.nick ?? undefined } as APIAuditLogChange);
      member.nick = patch.nick;
    }
    if (patch.communicationDisabledUntil !== undefined) {
      changes.push({
        key: 'communication_disabled_until',
        old_value: member.communicationDisabledUntil ?? undefined,
        new_value: patch.communicationDisabledUntil ?? undefined,
      } as APIAuditLogChange);
      member.communicationDisabledUntil = patch.communicationDisabledUntil;
    }
    let roleChanges: APIAuditLogChange[] = [];
    if (patch.roleIds !== undefined) {
      const next = [...new Set(patch.roleIds.filter((id) => guild.roles.has(id) && id !== guild.id))];
      roleChanges = roleDiff(guild, member.roleIds, next);
      member.roleIds = next;
    }
    this.emit(guildId, { t: GatewayDispatchEvents.GuildMemberUpdate, d: { ...presentMember(this, member), guild_id: guildId } });
    if (changes.length > 0) recordAudit(this, guildId, AuditLogEvent.MemberUpdate, userId, context, changes);
    if (roleChanges.length > 0) recordAudit(this, guildId, AuditLogEvent.MemberRoleUpdate, userId, context, roleChanges);
    return member;
  }

  /** Replaces a member's roles (GUILD_MEMBER_UPDATE). */
  setMemberRoles(guildId: string, userId: string, roleIds: string[], context: ActionContext = {}): MemberRecord {
    return this.updateMember(guildId, userId, { roleIds }, context);
  }

  /**
   * Bans a user: the member leaves, their messages of the last `deleteMessageSeconds` go
   * (MESSAGE_DELETE_BULK per channel), GUILD_BAN_ADD and MEMBER_BAN_ADD go out. Banning someone
   * already banned changes nothing and returns false, as on Discord.
   */
  ban(guildId: string, userId: string, context: ActionContext = {}, deleteMessageSeconds = 0): boolean {
    const guild = this.requireGuild(guildId);
    if (guild.bans.has(userId)) return false;
    if (guild.members.has(userId)) this.removeMember(guildId, userId);
    guild.bans.set(userId, { userId, reason: context.reason ?? null });
    if (deleteMessageSeconds > 0) {
      const since = this.clock.ms() - deleteMessageSeconds * 1000;
      for (const channel of guild.channels.values()) {
        const ids = this.messages
          .list(channel.id)
          .filter((m) => m.authorId === userId && Date.parse(m.timestamp) >= since)
          .map((m) => m.id);
        if (ids.length > 0) this.messages.deleteBulk(channel.id, ids);
      }
    }
    this.emit(guildId, { t: GatewayDispatchEvents.GuildBanAdd, d: { guild_id: guildId, user: presentUserById(this, userId) } });
    recordAudit(this, guildId, AuditLogEvent.MemberBanAdd, userId, context, []);
    return true;
  }

  /** Lifts a ban (GUILD_BAN_REMOVE). */
  unban(guildId: string, userId: string, context: ActionContext = {}): boolean {
    const guild = this.requireGuild(guildId);
    if (!guild.bans.delete(userId)) return false;
    this.emit(guildId, { t: GatewayDispatchEvents.GuildBanRemove, d: { guild_id: guildId, user: presentUserById(this, userId) } });
    recordAudit(this, guildId, AuditLogEvent.MemberBanRemove, userId, context, []);
    return true;
  }

  /**
   * The demo login's account for `input.id`: created on first use as an Admin of the demo guild,
   * reused afterwards (its Admin role restored if it was taken away). An id that belongs to any
   * other sandbox user throws DemoAccountRefused and changes nothing.
   */
  demoAccount(input: { id: string; username: string; discriminator: string }): UserRecord {
    const existing = this.users.get(input.id);
    if (existing && !this.demoAccounts.has(input.id)) {
      throw new DemoAccountRefused(`${input.id} already belongs to a sandbox user; the demo login only signs in as accounts it made. Use another id.`);
    }
    const { guildId, roles } = this.demo;
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(input.id);
    if (!member) {
      this.addMember(guildId, { id: input.id, username: input.username, discriminator: input.discriminator, roleIds: [roles.admin, roles.member] });
    } else if (!member.roleIds.includes(roles.admin)) {
      this.setMemberRoles(guildId, input.id, [...member.roleIds, roles.admin]);
    }
    this.demoAccounts.add(input.id);
    const user = this.users.get(input.id);
    if (!user) throw new Error(`demo account ${input.id} was not created`);
    return user;
  }

  /**
   * Changes a member's voice state (VOICE_STATE_UPDATE): `channelId` null leaves voice, undefined keeps the
   * channel; server mute/deafen by a moderator (`context.actorId`) also log MEMBER_UPDATE. Callers check
   * that the channel is a voice channel the member may connect to.
   */
  updateVoiceState(guildId: string, userId: string, patch: VoicePatch, context: ActionContext = {}): VoiceStateRecord | null {
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`unknown member ${userId}`);
    const changes: APIAuditLogChange[] = [];
    for (const key of ['mute', 'deaf'] as const) {
      const next = patch[key];
      if (next === undefined || next === member[key]) continue;
      changes.push({ key, old_value: member[key], new_value: next } as APIAuditLogChange);
      member[key] = next;
    }
    const current = guild.voice.get(userId) ?? null;
    const channelId = patch.channelId === undefined ? (current?.channelId ?? null) : patch.channelId;
    const state: VoiceStateRecord | null = channelId
      ? {
          channelId,
          selfMute: patch.selfMute ?? current?.selfMute ?? false,
          selfDeaf: patch.selfDeaf ?? current?.selfDeaf ?? false,
          selfVideo: patch.selfVideo ?? current?.selfVideo ?? false,
        }
      : null;
    if (state) guild.voice.set(userId, state);
    else guild.voice.delete(userId);
    if (current || state) {
      this.emit(guildId, {
        t: GatewayDispatchEvents.VoiceStateUpdate,
        d: { ...presentVoiceState(guild, userId, state), member: presentMember(this, member) },
      });
    }
    if (changes.length > 0 && context.actorId) recordAudit(this, guildId, AuditLogEvent.MemberUpdate, userId, context, changes);
    return state;
  }

  /**
   * A member starts or stops boosting: GUILD_MEMBER_UPDATE with `premium_since` and the "Server Booster"
   * role (made at the first boost, as Discord does), GUILD_UPDATE with the new boost count, and (when
   * boosting starts) Discord's boost message in the system channel.
   */
  setBoosting(guildId: string, userId: string, boosting: boolean): MemberRecord {
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`unknown member ${userId}`);
    if (boosting === Boolean(member.premiumSince)) return member;
    let boosterRole = [...guild.roles.values()].find((role) => role.premiumSubscriber);
    if (!boosterRole && boosting) boosterRole = this.structure.createRole(guildId, { name: 'Server Booster', color: 0xf47fff, premiumSubscriber: true });
    member.premiumSince = boosting ? this.clock.now().toISOString() : null;
    if (boosterRole) {
      const others = member.roleIds.filter((id) => id !== boosterRole.id);
      member.roleIds = boosting ? [...others, boosterRole.id] : others;
    }
    this.emit(guildId, { t: GatewayDispatchEvents.GuildMemberUpdate, d: { ...presentMember(this, member), guild_id: guildId } });
    this.emit(guildId, { t: GatewayDispatchEvents.GuildUpdate, d: presentGatewayGuild(guild) });
    if (boosting && guild.systemChannelId) {
      this.messages.create(guild.systemChannelId, { authorId: userId, type: MessageType.GuildBoost, allowedMentions: { parse: [] } });
    }
    return member;
  }

  /**
   * The bot leaves a guild (or is removed): it is no longer a member, its managed role goes, and its
   * sessions get GUILD_DELETE without `unavailable` (the guild is gone for it, not down). Dispatches about
   * the guild reach the bot no more. False if it was not in the guild.
   */
  removeBotFromGuild(guildId: string): boolean {
    const guild = this.requireGuild(guildId);
    if (!guild.members.has(this.botUserId)) return false;
    this.removeMember(guildId, this.botUserId);
    for (const role of [...guild.roles.values()]) if (role.botId === this.botUserId) this.structure.deleteRole(guildId, role);
    // Global: a dispatch about a guild goes only to a bot in it, and the bot has just left.
    this.emit(null, { t: GatewayDispatchEvents.GuildDelete, d: { id: guildId } });
    return true;
  }

  /** Adds the bot to a guild with a managed role holding `permissions` (GUILD_CREATE goes out). */
  addBotToGuild(guildId: string, permissions: bigint): void {
    const guild = this.requireGuild(guildId);
    if (guild.members.has(this.botUserId)) return;
    const bot = this.users.get(this.botUserId);
    if (!bot) throw new Error('no bot user');
    const role: RoleRecord = {
      id: this.snowflakes.next(),
      name: bot.username,
      permissions,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      botId: bot.id,
    };
    for (const other of guild.roles.values()) if (other.position >= 1 && other.id !== guild.id) other.position += 1;
    guild.roles.set(role.id, role);
    guild.members.set(bot.id, {
      userId: bot.id,
      nick: null,
      roleIds: [role.id],
      joinedAt: this.clock.now().toISOString(),
      communicationDisabledUntil: null,
      mute: false,
      deaf: false,
      premiumSince: null,
    });
    this.emit(guildId, {
      t: GatewayDispatchEvents.GuildCreate,
      d: presentGuildCreate(this, guild, this.botUserId, this.threads.presentForGuildCreate(guild, this.botUserId)),
    });
  }
}
