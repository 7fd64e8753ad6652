import {
  AuditLogEvent,
  AuditLogOptionsType,
  ChannelType,
  GatewayDispatchEvents,
  OverwriteType,
  type APIAuditLogChange,
  type APIAuditLogOptions,
} from 'discord-api-types/v10';
import { recordAudit, type ActionContext } from './audit-log';
import { presentChannel, presentMember, presentRole } from './presenters';
import { presentGatewayGuild } from './presenters-guild';
import type { ChannelRecord, GuildRecord, OverwriteRecord, RoleRecord } from './types';
import type { MessageStore } from './messages';
import type { WorldState } from './world-state';

/** What a new channel starts with (Discord's defaults: no slowmode, 64 kbps voice without a member cap). */
export const CHANNEL_DEFAULTS = { nsfw: false, rateLimitPerUser: 0, bitrate: 64000, userLimit: 0, lastPinTimestamp: null } as const;

/** A channel to create. */
export interface NewChannel {
  name: string;
  type: ChannelRecord['type'];
  parentId?: string | null;
  topic?: string | null;
  overwrites?: OverwriteRecord[];
  position?: number;
  nsfw?: boolean;
  rateLimitPerUser?: number;
  bitrate?: number;
  userLimit?: number;
}

/** The changes to a channel; absent fields stay as they are. */
export interface ChannelPatch {
  name?: string;
  type?: ChannelRecord['type'];
  topic?: string | null;
  position?: number;
  parentId?: string | null;
  nsfw?: boolean;
  rateLimitPerUser?: number;
  bitrate?: number;
  userLimit?: number;
  overwrites?: OverwriteRecord[];
}

/** Guild settings an admin (or a bot with Manage Server) changes. */
export interface GuildPatch {
  name?: string;
  description?: string | null;
  afkChannelId?: string | null;
  afkTimeout?: GuildRecord['afkTimeout'];
  systemChannelId?: string | null;
  rulesChannelId?: string | null;
  verificationLevel?: GuildRecord['verificationLevel'];
  defaultMessageNotifications?: GuildRecord['defaultMessageNotifications'];
  explicitContentFilter?: GuildRecord['explicitContentFilter'];
  preferredLocale?: GuildRecord['preferredLocale'];
  systemChannelFlags?: GuildRecord['systemChannelFlags'];
}

/** A role to create or the changes to one. */
export interface RoleInput {
  name?: string;
  permissions?: bigint;
  position?: number;
  color?: number;
  mentionable?: boolean;
  hoist?: boolean;
}

/**
 * What the structure changes besides the records: a deleted channel takes its messages and its
 * voice members along (the World, which owns those changes).
 */
export interface StructureHost extends WorldState {
  readonly messages: Pick<MessageStore, 'forgetChannel'>;
  updateVoiceState(guildId: string, userId: string, patch: { channelId: null }): unknown;
}

/** One audit-log change: `old_value`/`new_value` left out when undefined, as Discord leaves them out. */
function change(key: string, oldValue: unknown, newValue: unknown): APIAuditLogChange {
  return { key, ...(oldValue !== undefined ? { old_value: oldValue } : {}), ...(newValue !== undefined ? { new_value: newValue } : {}) } as APIAuditLogChange;
}

/** An overwrite as the audit log and the API write it (bit sets as strings). */
function overwriteJson(o: OverwriteRecord) {
  return { id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() };
}

/** The channel fields the audit log names, by their API keys. */
function channelFields(channel: ChannelRecord): Record<string, unknown> {
  return {
    name: channel.name,
    type: channel.type,
    topic: channel.topic,
    position: channel.position,
    parent_id: channel.parentId,
    nsfw: channel.nsfw,
    rate_limit_per_user: channel.rateLimitPerUser,
    ...(channel.type === ChannelType.GuildVoice ? { bitrate: channel.bitrate, user_limit: channel.userLimit } : {}),
  };
}

/** The role fields the audit log names. */
function roleFields(role: RoleRecord): Record<string, unknown> {
  return { name: role.name, permissions: role.permissions.toString(), color: role.color, hoist: role.hoist, mentionable: role.mentionable };
}

/** The guild fields the audit log names. */
function guildFields(guild: GuildRecord): Record<string, unknown> {
  return {
    name: guild.name,
    description: guild.description,
    afk_channel_id: guild.afkChannelId,
    afk_timeout: guild.afkTimeout,
    system_channel_id: guild.systemChannelId,
    rules_channel_id: guild.rulesChannelId,
    verification_level: guild.verificationLevel,
    default_message_notifications: guild.defaultMessageNotifications,
    explicit_content_filter: guild.explicitContentFilter,
    preferred_locale: guild.preferredLocale,
    system_channel_flags: guild.systemChannelFlags,
  };
}

/** The changes between two snapshots of fields, in Discord's `{ key, old_value, new_value }` form (nulls left out). */
function diff(before: Record<string, unknown>, after: Record<string, unknown>): APIAuditLogChange[] {
  return Object.keys(after)
    .filter((key) => before[key] !== after[key])
    .map((key) => change(key, before[key] ?? undefined, after[key] ?? undefined));
}

/** Every field of a snapshot as created (`new_value`) or deleted (`old_value`). */
function snapshot(fields: Record<string, unknown>, side: 'new' | 'old'): APIAuditLogChange[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => (side === 'new' ? change(key, undefined, value) : change(key, value, undefined)));
}

/**
 * A guild's structure changing at run time, as admins change it in Discord or a bot through REST:
 * the guild's settings, channels and roles created, changed (overwrites, permissions, position) and
 * deleted, each with the dispatch Discord sends, so a test can take a permission away from the bot
 * and see the product react. A change with an actor (`context.actorId`) is also kept in the audit log.
 */
export class GuildStructure {
  constructor(private readonly world: StructureHost) {}

  /** CHANNEL_CREATE (and CHANNEL_CREATE in the audit log). */
  createChannel(guildId: string, input: NewChannel, context: ActionContext = {}): ChannelRecord {
    const guild = this.world.requireGuild(guildId);
    const channel: ChannelRecord = {
      id: this.world.snowflakes.next(),
      guildId,
      name: input.name,
      type: input.type,
      position: input.position ?? guild.channels.size,
      topic: input.topic ?? null,
      parentId: input.parentId ?? null,
      overwrites: input.overwrites ?? [],
      lastMessageId: null,
      ...CHANNEL_DEFAULTS,
      ...(input.nsfw !== undefined ? { nsfw: input.nsfw } : {}),
      ...(input.rateLimitPerUser !== undefined ? { rateLimitPerUser: input.rateLimitPerUser } : {}),
      ...(input.bitrate !== undefined ? { bitrate: input.bitrate } : {}),
      ...(input.userLimit !== undefined ? { userLimit: input.userLimit } : {}),
    };
    guild.channels.set(channel.id, channel);
    this.world.indexChannel(channel.id, guildId);
    this.world.emit(guildId, { t: GatewayDispatchEvents.ChannelCreate, d: presentChannel(channel) as never });
    if (context.actorId) {
      const changes = [...snapshot(channelFields(channel), 'new'), change('permission_overwrites', undefined, channel.overwrites.map(overwriteJson))];
      recordAudit(this.world, guildId, AuditLogEvent.ChannelCreate, channel.id, context, changes);
    }
    return channel;
  }

  /** Guild settings change (GUILD_UPDATE; GUILD_UPDATE in the audit log with what changed). */
  updateGuild(guild: GuildRecord, patch: GuildPatch, context: ActionContext = {}): void {
    const before = guildFields(guild);
    if (patch.name !== undefined) guild.name = patch.name;
    if (patch.description !== undefined) guild.description = patch.description;
    if (patch.afkChannelId !== undefined) guild.afkChannelId = patch.afkChannelId;
    if (patch.afkTimeout !== undefined) guild.afkTimeout = patch.afkTimeout;
    if (patch.systemChannelId !== undefined) guild.systemChannelId = patch.systemChannelId;
    if (patch.rulesChannelId !== undefined) guild.rulesChannelId = patch.rulesChannelId;
    if (patch.verificationLevel !== undefined) guild.verificationLevel = patch.verificationLevel;
    if (patch.defaultMessageNotifications !== undefined) guild.defaultMessageNotifications = patch.defaultMessageNotifications;
    if (patch.explicitContentFilter !== undefined) guild.explicitContentFilter = patch.explicitContentFilter;
    if (patch.preferredLocale !== undefined) guild.preferredLocale = patch.preferredLocale;
    if (patch.systemChannelFlags !== undefined) guild.systemChannelFlags = patch.systemChannelFlags;
    this.world.emit(guild.id, { t: GatewayDispatchEvents.GuildUpdate, d: presentGatewayGuild(guild) });
    const changes = diff(before, guildFields(guild));
    if (context.actorId && changes.length > 0) recordAudit(this.world, guild.id, AuditLogEvent.GuildUpdate, guild.id, context, changes);
  }

  /**
   * CHANNEL_UPDATE: new settings or permission overwrites. With an actor, CHANNEL_UPDATE in the audit
   * log for the settings and one CHANNEL_OVERWRITE_CREATE/UPDATE/DELETE per overwrite, as Discord logs them.
   */
  updateChannel(channel: ChannelRecord, patch: ChannelPatch, context: ActionContext = {}): ChannelRecord {
    const before = channelFields(channel);
    const previous = channel.overwrites;
    if (patch.name !== undefined) channel.name = patch.name;
    if (patch.type !== undefined) channel.type = patch.type;
    if (patch.topic !== undefined) channel.topic = patch.topic;
    if (patch.position !== undefined) channel.position = patch.position;
    if (patch.parentId !== undefined) channel.parentId = patch.parentId;
    if (patch.nsfw !== undefined) channel.nsfw = patch.nsfw;
    if (patch.rateLimitPerUser !== undefined) channel.rateLimitPerUser = patch.rateLimitPerUser;
    if (patch.bitrate !== undefined) channel.bitrate = patch.bitrate;
    if (patch.userLimit !== undefined) channel.userLimit = patch.userLimit;
    if (patch.overwrites !== undefined) channel.overwrites = patch.overwrites;
    this.world.emit(channel.guildId, { t: GatewayDispatchEvents.ChannelUpdate, d: presentChannel(channel) as never });
    if (!context.actorId) return channel;
    const changes = diff(before, channelFields(channel));
    if (changes.length > 0) recordAudit(this.world, channel.guildId, AuditLogEvent.ChannelUpdate, channel.id, context, changes);
    if (patch.overwrites !== undefined) this.auditOverwrites(channel, previous, patch.overwrites, context);
    return channel;
  }

  /** One CHANNEL_OVERWRITE_CREATE, _UPDATE or _DELETE entry per overwrite that came, changed or went. */
  private auditOverwrites(channel: ChannelRecord, before: OverwriteRecord[], after: OverwriteRecord[], context: ActionContext): void {
    const guild = this.world.requireGuild(channel.guildId);
    const options = (o: OverwriteRecord): APIAuditLogOptions => ({
      id: o.id,
      type: o.type === OverwriteType.Role ? AuditLogOptionsType.Role : AuditLogOptionsType.Member,
      ...(o.type === OverwriteType.Role ? { role_name: guild.roles.get(o.id)?.name ?? '' } : {}),
    });
    const record = (action: AuditLogEvent, o: OverwriteRecord, changes: APIAuditLogChange[]) =>
      recordAudit(this.world, channel.guildId, action, channel.id, context, changes, options(o));
    for (const old of before) {
      const now = after.find((o) => o.id === old.id);
      if (!now) record(AuditLogEvent.ChannelOverwriteDelete, old, snapshot(overwriteJson(old), 'old'));
      else if (now.allow !== old.allow || now.deny !== old.deny)
        record(
          AuditLogEvent.ChannelOverwriteUpdate,
          now,
          diff({ allow: old.allow.toString(), deny: old.deny.toString() }, { allow: now.allow.toString(), deny: now.deny.toString() }),
        );
    }
    for (const now of after) if (!before.some((o) => o.id === now.id)) record(AuditLogEvent.ChannelOverwriteCreate, now, snapshot(overwriteJson(now), 'new'));
  }

  /**
   * CHANNEL_DELETE; its messages go with it, the channels of a deleted category lose their parent
   * (CHANNEL_UPDATE each), the AFK and system channel settings that named it are cleared (GUILD_UPDATE).
   */
  deleteChannel(channel: ChannelRecord, context: ActionContext = {}): void {
    const guild = this.world.requireGuild(channel.guildId);
    guild.channels.delete(channel.id);
    this.world.messages.forgetChannel(channel.id);
    for (const [userId, state] of guild.voice) if (state.channelId === channel.id) this.world.updateVoiceState(guild.id, userId, { channelId: null });
    this.world.emit(guild.id, { t: GatewayDispatchEvents.ChannelDelete, d: presentChannel(channel) as never });
    if (context.actorId) {
      const changes = [...snapshot(channelFields(channel), 'old'), change('permission_overwrites', channel.overwrites.map(overwriteJson), undefined)];
      recordAudit(this.world, guild.id, AuditLogEvent.ChannelDelete, channel.id, context, changes);
    }
    for (const child of guild.channels.values()) if (child.parentId === channel.id) this.updateChannel(child, { parentId: null });
    if (guild.afkChannelId === channel.id || guild.systemChannelId === channel.id || guild.rulesChannelId === channel.id) {
      this.updateGuild(guild, {
        ...(guild.afkChannelId === channel.id ? { afkChannelId: null } : {}),
        ...(guild.systemChannelId === channel.id ? { systemChannelId: null } : {}),
        ...(guild.rulesChannelId === channel.id ? { rulesChannelId: null } : {}),
      });
    }
  }

  /** GUILD_ROLE_CREATE, just above @everyone unless a position is given (ROLE_CREATE in the audit log). */
  createRole(guildId: string, input: RoleInput & { name: string; premiumSubscriber?: true }, context: ActionContext = {}): RoleRecord {
    const guild = this.world.requireGuild(guildId);
    const role: RoleRecord = {
      id: this.world.snowflakes.next(),
      name: input.name,
      permissions: input.permissions ?? 0n,
      position: 1,
      color: input.color ?? 0,
      hoist: input.hoist ?? false,
      mentionable: input.mentionable ?? false,
      botId: null,
      ...(input.premiumSubscriber ? { premiumSubscriber: true as const } : {}),
    };
    for (const other of guild.roles.values()) if (other.id !== guild.id) other.position += 1;
    guild.roles.set(role.id, role);
    this.world.emit(guildId, { t: GatewayDispatchEvents.GuildRoleCreate, d: { guild_id: guildId, role: presentRole(role) } });
    if (context.actorId) recordAudit(this.world, guildId, AuditLogEvent.RoleCreate, role.id, context, snapshot(roleFields(role), 'new'));
    if (input.position !== undefined) this.updateRole(guildId, role, { position: input.position });
    return role;
  }

  /** GUILD_ROLE_UPDATE for the role (and for every role a move shifts); ROLE_UPDATE in the audit log. */
  updateRole(guildId: string, role: RoleRecord, patch: RoleInput, context: ActionContext = {}): RoleRecord {
    const guild = this.world.requireGuild(guildId);
    const before = roleFields(role);
    if (patch.name !== undefined) role.name = patch.name;
    if (patch.permissions !== undefined) role.permissions = patch.permissions;
    if (patch.color !== undefined) role.color = patch.color;
    if (patch.mentionable !== undefined) role.mentionable = patch.mentionable;
    if (patch.hoist !== undefined) role.hoist = patch.hoist;
    const changed = new Set<RoleRecord>([role]);
    if (patch.position !== undefined && role.id !== guild.id) for (const moved of this.placeRoles(guild, [[role, patch.position]])) changed.add(moved);
    for (const r of changed) this.world.emit(guildId, { t: GatewayDispatchEvents.GuildRoleUpdate, d: { guild_id: guildId, role: presentRole(r) } });
    const changes = diff(before, roleFields(role));
    if (context.actorId && changes.length > 0) recordAudit(this.world, guildId, AuditLogEvent.RoleUpdate, role.id, context, changes);
    return role;
  }

  /**
   * Moves several roles at once (`PATCH /guilds/:id/roles`): each goes to its asked position, the
   * others keep their order around them, positions are renumbered 1..n above @everyone. GUILD_ROLE_UPDATE
   * for every role whose position changed.
   */
  moveRoles(guildId: string, moves: Array<[RoleRecord, number]>): void {
    const guild = this.world.requireGuild(guildId);
    for (const r of this.placeRoles(guild, moves))
      this.world.emit(guildId, { t: GatewayDispatchEvents.GuildRoleUpdate, d: { guild_id: guildId, role: presentRole(r) } });
  }

  /**
   * The guild's roles but @everyone, lowest first, with `moves` applied: each moved role at its asked
   * position (1 = just above @everyone), the others in their order (position, then id) around them.
   */
  roleOrder(guild: GuildRecord, moves: Array<[RoleRecord, number]>): RoleRecord[] {
    const moving = new Map(moves.filter(([r]) => r.id !== guild.id).map(([r, position]) => [r.id, position]));
    const ordered = [...guild.roles.values()]
      .filter((r) => r.id !== guild.id && !moving.has(r.id))
      .sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    for (const [id, position] of [...moving.entries()].sort((a, b) => a[1] - b[1])) {
      const role = guild.roles.get(id);
      if (role) ordered.splice(Math.max(1, Math.min(position, ordered.length + 1)) - 1, 0, role);
    }
    return ordered;
  }

  /** Renumbers the roles 1..n in the order `moves` makes; returns those whose position changed. */
  private placeRoles(guild: GuildRecord, moves: Array<[RoleRecord, number]>): Set<RoleRecord> {
    const changed = new Set<RoleRecord>();
    this.roleOrder(guild, moves).forEach((r, index) => {
      if (r.position !== index + 1) changed.add(r);
      r.position = index + 1;
    });
    return changed;
  }

  /** GUILD_ROLE_DELETE; members lose it (GUILD_MEMBER_UPDATE each, no audit entry of their own); ROLE_DELETE in the audit log. */
  deleteRole(guildId: string, role: RoleRecord, context: ActionContext = {}): void {
    const guild = this.world.requireGuild(guildId);
    guild.roles.delete(role.id);
    for (const member of guild.members.values()) {
      if (!member.roleIds.includes(role.id)) continue;
      member.roleIds = member.roleIds.filter((id) => id !== role.id);
      this.world.emit(guildId, { t: GatewayDispatchEvents.GuildMemberUpdate, d: { ...presentMember(this.world, member), guild_id: guildId } });
    }
    this.world.emit(guildId, { t: GatewayDispatchEvents.GuildRoleDelete, d: { guild_id: guildId, role_id: role.id } });
    if (context.actorId) recordAudit(this.world, guildId, AuditLogEvent.RoleDelete, role.id, context, snapshot(roleFields(role), 'old'));
  }
}

/** Whether a channel type takes messages. */
export function isTextChannel(channel: ChannelRecord): boolean {
  return channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement;
}
