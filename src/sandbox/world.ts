import { EventEmitter } from 'node:events';
import {
  AuditLogEvent,
  GatewayDispatchEvents,
  MessageType,
  type APIAuditLogChange,
  type APIAuditLogEntry,
  type GatewayDispatchPayload,
} from 'discord-api-types/v10';
import { systemClock, type Clock } from '../core/clock';
import { CommandStore } from './commands';
import { DirectMessageStore } from './dms';
import { MessageStore } from './messages';
import { GuildStructure } from './world-structure';
import { presentGatewayGuild, presentGuildCreate, presentVoiceState } from './presenters-guild';
import { presentMember, presentUser, presentUserById, type UserSource } from './presenters';
import { SnowflakeFactory } from './snowflake';
import type { GuildRecord, MemberRecord, RoleRecord, UserRecord, VoiceStateRecord } from './types';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A gateway dispatch before the gateway numbers it (`op` and `s` are added per session). */
export type WorldDispatch = DistributiveOmit<GatewayDispatchPayload, 'op' | 's'>;

/** A dispatch plus the guild it concerns (null for global events). */
export interface WorldEvent {
  guildId: string | null;
  dispatch: WorldDispatch;
}

/** Ids of the demo world that tests and the dashboard's demo login use. */
export interface DemoIds {
  guildId: string;
  secondGuildId: string;
  thirdGuildId: string;
  ownerUserId: string;
  adminUserId: string;
  plainMemberId: string;
  otherAdminUserId: string;
  channels: { welcome: string; rules: string; general: string; announcements: string; modLog: string; voice: string; afk: string; staffVoice: string };
  roles: { admin: string; moderator: string; member: string; verified: string; bot: string; aboveBot: string };
}

/** Input for a member joining (a new user is created unless `id` names an existing one). */
export interface NewMemberInput {
  id?: string;
  username: string;
  globalName?: string | null;
  discriminator?: string;
  avatar?: string | null;
  roleIds?: string[];
  joinedAt?: string;
}

/** Audit-log entries kept per guild. */
const AUDIT_LOG_KEPT = 1000;

/** The demo login asked for an id that belongs to a sandbox user it did not make. */
export class DemoAccountRefused extends Error {
  override name = 'DemoAccountRefused';
}

/** Who did a moderation action and why (for the audit log). */
export interface ActionContext {
  actorId?: string;
  reason?: string | null;
}

/** A change to a member's voice state (see World.updateVoiceState). */
export interface VoicePatch {
  channelId?: string | null;
  selfMute?: boolean;
  selfDeaf?: boolean;
  selfVideo?: boolean;
  mute?: boolean;
  deaf?: boolean;
}

/** A member change; absent fields stay as they are. */
export interface MemberPatch {
  nick?: string | null;
  roleIds?: string[];
  communicationDisabledUntil?: string | null;
}

/**
 * The sandbox's in-memory Discord: users, guilds, members, messages, commands. Every mutation emits the
 * gateway dispatch Discord would send, on `events` ('dispatch'). Permission checks live in the REST layer.
 */
export class World implements UserSource {
  /** Every user, by id. */
  readonly users = new Map<string, UserRecord>();
  /** Every guild, by id. */
  readonly guilds = new Map<string, GuildRecord>();
  /** Emits 'dispatch' with a WorldEvent. */
  readonly events = new EventEmitter();
  /** Channel messages and reactions. */
  readonly messages: MessageStore;
  /** Direct messages between the bot and users. */
  readonly dms: DirectMessageStore;
  /** Channels and roles changing at run time. */
  readonly structure: GuildStructure;
  /** Registered application commands. */
  readonly commands = new CommandStore();
  /** Users the demo login may sign in as: the seeded demo admin and the accounts it created. */
  readonly demoAccounts = new Set<string>();
  private demoIds: DemoIds | null = null;
  /** The bot user's id (also the application id, as on Discord). */
  botUserId = '';
  /** The bot's last presence update (gateway op 3): its status and activities (custom status in `state`). */
  botPresence: { status: string; activities: { type: number; name: string; state: string | null }[] } | null = null;

  /**
   * `snowflakes` makes every id; `botToken` is what the bot must present; `clock` is the world's
   * time; `messagesKeptPerChannel` bounds each channel's history (MESSAGES_KEPT_PER_CHANNEL).
   */
  constructor(
    readonly snowflakes: SnowflakeFactory,
    public botToken: string,
    readonly clock: Clock = systemClock,
    messagesKeptPerChannel?: number,
  ) {
    this.events.setMaxListeners(100);
    this.messages = new MessageStore(this, messagesKeptPerChannel);
    this.dms = new DirectMessageStore(this);
    this.structure = new GuildStructure(this);
  }

  /** Ids of the demo guilds, users, channels and roles (set once by the seed). */
  get demo(): DemoIds {
    if (!this.demoIds) throw new Error('the demo world is not seeded');
    return this.demoIds;
  }

  set demo(ids: DemoIds) {
    this.demoIds = ids;
  }

  /** The application id (the same as the bot user's id). */
  get applicationId(): string {
    return this.botUserId;
  }

  /** The user with that id. */
  getUser(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  /** Creates a user. */
  addUser(input: Omit<UserRecord, 'id' | 'email' | 'discriminator'> & { id?: string; discriminator?: string }): UserRecord {
    const id = input.id ?? this.snowflakes.next();
    const user: UserRecord = { ...input, id, discriminator: input.discriminator ?? '0', email: `${input.username}@sandbox.test` };
    this.users.set(id, user);
    return user;
  }

  /** Sends a dispatch to every gateway session that may see it. */
  emit(guildId: string | null, dispatch: WorldDispatch): void {
    this.events.emit('dispatch', { guildId, dispatch } satisfies WorldEvent);
  }

  /** Whether the bot is a member of the guild. */
  isBotIn(guildId: string): boolean {
    return this.guilds.get(guildId)?.members.has(this.botUserId) ?? false;
  }

  /** Finds a guild by a channel id in it. */
  guildOfChannel(channelId: string): GuildRecord | undefined {
    const guildId = this.channelGuild.get(channelId);
    return guildId ? this.guilds.get(guildId) : undefined;
  }

  /** Indexes a channel created after its guild. */
  indexChannel(channelId: string, guildId: string): void {
    this.channelGuild.set(channelId, guildId);
  }

  /** Registers a guild and indexes its channels. */
  addGuild(guild: GuildRecord): void {
    this.guilds.set(guild.id, guild);
    for (const channelId of guild.channels.keys()) this.channelGuild.set(channelId, guild.id);
  }

  private readonly channelGuild = new Map<string, string>();

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
    if (context.actorId) this.audit(guildId, AuditLogEvent.MemberKick, userId, context, []);
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
      roleChanges = this.roleDiff(guild, member.roleIds, next);
      member.roleIds = next;
    }
    this.emit(guildId, { t: GatewayDispatchEvents.GuildMemberUpdate, d: { ...presentMember(this, member), guild_id: guildId } });
    if (changes.length > 0) this.audit(guildId, AuditLogEvent.MemberUpdate, userId, context, changes);
    if (roleChanges.length > 0) this.audit(guildId, AuditLogEvent.MemberRoleUpdate, userId, context, roleChanges);
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
    this.audit(guildId, AuditLogEvent.MemberBanAdd, userId, context, []);
    return true;
  }

  /** Lifts a ban (GUILD_BAN_REMOVE). */
  unban(guildId: string, userId: string, context: ActionContext = {}): boolean {
    const guild = this.requireGuild(guildId);
    if (!guild.bans.delete(userId)) return false;
    this.emit(guildId, { t: GatewayDispatchEvents.GuildBanRemove, d: { guild_id: guildId, user: presentUserById(this, userId) } });
    this.audit(guildId, AuditLogEvent.MemberBanRemove, userId, context, []);
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
    if (changes.length > 0 && context.actorId) this.audit(guildId, AuditLogEvent.MemberUpdate, userId, context, changes);
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
    this.emit(guildId, { t: GatewayDispatchEvents.GuildCreate, d: presentGuildCreate(this, guild, this.botUserId) });
  }

  /** The guild, or an error for code paths that checked already. */
  requireGuild(guildId: string): GuildRecord {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`unknown guild ${guildId}`);
    return guild;
  }

  private roleDiff(guild: GuildRecord, before: string[], after: string[]): APIAuditLogChange[] {
    const named = (ids: string[]) => ids.map((id) => ({ id, name: guild.roles.get(id)?.name ?? '' }));
    const added = after.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !after.includes(id));
    const changes: APIAuditLogChange[] = [];
    if (added.length > 0) changes.push({ key: '$add', new_value: named(added) });
    if (removed.length > 0) changes.push({ key: '$remove', new_value: named(removed) });
    return changes;
  }

  /** Records an audit-log entry (kept for GET /audit-logs) and sends GUILD_AUDIT_LOG_ENTRY_CREATE. */
  private audit(
    guildId: string,
    action: AuditLogEvent,
    targetId: string,
    context: ActionContext,
    changes: APIAuditLogChange[],
    options?: APIAuditLogEntry['options'],
  ): void {
    const entry: APIAuditLogEntry = {
      id: this.snowflakes.next(),
      action_type: action,
      target_id: targetId,
      user_id: context.actorId ?? null,
      ...(changes.length > 0 ? { changes } : {}),
      ...(context.reason ? { reason: context.reason } : {}),
      ...(options ? { options } : {}),
    };
    const guild = this.requireGuild(guildId);
    guild.auditLog.push(entry);
    if (guild.auditLog.length > AUDIT_LOG_KEPT) guild.auditLog.splice(0, guild.auditLog.length - AUDIT_LOG_KEPT);
    this.emit(guildId, { t: GatewayDispatchEvents.GuildAuditLogEntryCreate, d: { ...entry, guild_id: guildId } });
  }

  /** The bot user as a payload. */
  botUser() {
    const bot = this.users.get(this.botUserId);
    if (!bot) throw new Error('no bot user');
    return presentUser(bot);
  }
}
