import { EventEmitter } from 'node:events';
import {
  AuditLogEvent,
  GatewayDispatchEvents,
  type APIAuditLogChange,
  type GatewayDispatchPayload,
} from 'discord-api-types/v10';
import { CommandStore } from './commands';
import { MessageStore } from './messages';
import { presentGuildCreate, presentVoiceStates } from './presenters-guild';
import { presentMember, presentUser, presentUserById, type UserSource } from './presenters';
import { SnowflakeFactory } from './snowflake';
import type { GuildRecord, MemberRecord, RoleRecord, UserRecord } from './types';

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
  channels: { welcome: string; rules: string; general: string; announcements: string; modLog: string; voice: string };
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

/** Who did a moderation action and why (for the audit log). */
export interface ActionContext {
  actorId?: string;
  reason?: string | null;
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
  /** Registered application commands. */
  readonly commands = new CommandStore();
  private demoIds: DemoIds | null = null;
  /** The bot user's id (also the application id, as on Discord). */
  botUserId = '';

  /** `snowflakes` makes every id; `botToken` is what the bot must present. */
  constructor(
    readonly snowflakes: SnowflakeFactory,
    public botToken: string,
  ) {
    this.events.setMaxListeners(100);
    this.messages = new MessageStore(this);
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
      joinedAt: input.joinedAt ?? new Date().toISOString(),
      communicationDisabledUntil: null,
    };
    guild.members.set(user.id, member);
    this.emit(guildId, { t: GatewayDispatchEvents.GuildMemberAdd, d: { ...presentMember(this, member), guild_id: guildId } });
    return member;
  }

  /** A member leaves or is kicked (GUILD_MEMBER_REMOVE; a kick with an actor also logs MEMBER_KICK). */
  removeMember(guildId: string, userId: string, context: ActionContext = {}): boolean {
    const guild = this.requireGuild(guildId);
    if (!guild.members.delete(userId)) return false;
    guild.voice.delete(userId);
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

  /** Bans a user: the member leaves, GUILD_BAN_ADD and MEMBER_BAN_ADD go out. */
  ban(guildId: string, userId: string, context: ActionContext = {}): void {
    const guild = this.requireGuild(guildId);
    if (guild.members.has(userId)) this.removeMember(guildId, userId);
    guild.bans.set(userId, { userId, reason: context.reason ?? null });
    this.emit(guildId, { t: GatewayDispatchEvents.GuildBanAdd, d: { guild_id: guildId, user: presentUserById(this, userId) } });
    this.audit(guildId, AuditLogEvent.MemberBanAdd, userId, context, []);
  }

  /** Lifts a ban (GUILD_BAN_REMOVE). */
  unban(guildId: string, userId: string, context: ActionContext = {}): boolean {
    const guild = this.requireGuild(guildId);
    if (!guild.bans.delete(userId)) return false;
    this.emit(guildId, { t: GatewayDispatchEvents.GuildBanRemove, d: { guild_id: guildId, user: presentUserById(this, userId) } });
    this.audit(guildId, AuditLogEvent.MemberBanRemove, userId, context, []);
    return true;
  }

  /** Moves a member into a voice channel, or out with null (VOICE_STATE_UPDATE). */
  setVoiceChannel(guildId: string, userId: string, channelId: string | null): void {
    const guild = this.requireGuild(guildId);
    const member = guild.members.get(userId);
    if (!member) throw new Error(`unknown member ${userId}`);
    if (channelId) guild.voice.set(userId, channelId);
    else guild.voice.delete(userId);
    const state = presentVoiceStates({ ...guild, voice: new Map([[userId, channelId ?? '']]) })[0];
    if (!state) return;
    this.emit(guildId, {
      t: GatewayDispatchEvents.VoiceStateUpdate,
      d: { ...state, channel_id: channelId, member: presentMember(this, member) },
    });
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
      joinedAt: new Date().toISOString(),
      communicationDisabledUntil: null,
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

  private audit(guildId: string, action: AuditLogEvent, targetId: string, context: ActionContext, changes: APIAuditLogChange[]): void {
    this.emit(guildId, {
      t: GatewayDispatchEvents.GuildAuditLogEntryCreate,
      d: {
        id: this.snowflakes.next(),
        guild_id: guildId,
        action_type: action,
        target_id: targetId,
        user_id: context.actorId ?? null,
        ...(changes.length > 0 ? { changes } : {}),
        ...(context.reason ? { reason: context.reason } : {}),
      },
    });
  }

  /** The bot user as a payload. */
  botUser() {
    const bot = this.users.get(this.botUserId);
    if (!bot) throw new Error('no bot user');
    return presentUser(bot);
  }
}
