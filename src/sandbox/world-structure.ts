import { ChannelType, GatewayDispatchEvents } from 'discord-api-types/v10';
import { presentChannel, presentRole } from './presenters';
import { presentGatewayGuild } from './presenters-guild';
import type { ChannelRecord, GuildRecord, OverwriteRecord, RoleRecord } from './types';
import type { MessageStore } from './messages';
import type { WorldState } from './world-state';

/** A channel to create. */
export interface NewChannel {
  name: string;
  type: ChannelRecord['type'];
  parentId?: string | null;
  topic?: string | null;
  overwrites?: OverwriteRecord[];
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
 * voice members along, a deleted role leaves its members (the World, which owns those changes).
 */
export interface StructureHost extends WorldState {
  readonly messages: Pick<MessageStore, 'forgetChannel'>;
  updateVoiceState(guildId: string, userId: string, patch: { channelId: null }): unknown;
  setMemberRoles(guildId: string, userId: string, roleIds: string[]): unknown;
}

/**
 * A guild's structure changing at run time, as admins change it in Discord: channels and roles
 * created, changed (overwrites, permissions, position) and deleted, each with the dispatch Discord
 * sends, so a test can take a permission away from the bot and see the product react.
 */
export class GuildStructure {
  constructor(private readonly world: StructureHost) {}

  /** CHANNEL_CREATE. */
  createChannel(guildId: string, input: NewChannel): ChannelRecord {
    const guild = this.world.requireGuild(guildId);
    const channel: ChannelRecord = {
      id: this.world.snowflakes.next(),
      guildId,
      name: input.name,
      type: input.type,
      position: guild.channels.size,
      topic: input.topic ?? null,
      parentId: input.parentId ?? null,
      overwrites: input.overwrites ?? [],
      lastMessageId: null,
    };
    guild.channels.set(channel.id, channel);
    this.world.indexChannel(channel.id, guildId);
    this.world.emit(guildId, { t: GatewayDispatchEvents.ChannelCreate, d: presentChannel(channel) as never });
    return channel;
  }

  /** Guild settings an admin changes (GUILD_UPDATE). */
  updateGuild(
    guild: GuildRecord,
    patch: { name?: string; afkChannelId?: string | null; afkTimeout?: GuildRecord['afkTimeout']; systemChannelId?: string | null },
  ): void {
    if (patch.name !== undefined) guild.name = patch.name;
    if (patch.afkChannelId !== undefined) guild.afkChannelId = patch.afkChannelId;
    if (patch.afkTimeout !== undefined) guild.afkTimeout = patch.afkTimeout;
    if (patch.systemChannelId !== undefined) guild.systemChannelId = patch.systemChannelId;
    this.world.emit(guild.id, { t: GatewayDispatchEvents.GuildUpdate, d: presentGatewayGuild(guild) });
  }

  /** CHANNEL_UPDATE: a new name, topic or permission overwrites. */
  updateChannel(channel: ChannelRecord, patch: { name?: string; topic?: string | null; overwrites?: OverwriteRecord[] }): ChannelRecord {
    if (patch.name !== undefined) channel.name = patch.name;
    if (patch.topic !== undefined) channel.topic = patch.topic;
    if (patch.overwrites !== undefined) channel.overwrites = patch.overwrites;
    this.world.emit(channel.guildId, { t: GatewayDispatchEvents.ChannelUpdate, d: presentChannel(channel) as never });
    return channel;
  }

  /** CHANNEL_DELETE; its messages go with it. */
  deleteChannel(channel: ChannelRecord): void {
    const guild = this.world.requireGuild(channel.guildId);
    guild.channels.delete(channel.id);
    this.world.messages.forgetChannel(channel.id);
    for (const [userId, state] of guild.voice) if (state.channelId === channel.id) this.world.updateVoiceState(guild.id, userId, { channelId: null });
    this.world.emit(guild.id, { t: GatewayDispatchEvents.ChannelDelete, d: presentChannel(channel) as never });
    if (guild.afkChannelId === channel.id || guild.systemChannelId === channel.id) {
      this.updateGuild(guild, {
        ...(guild.afkChannelId === channel.id ? { afkChannelId: null } : {}),
        ...(guild.systemChannelId === channel.id ? { systemChannelId: null } : {}),
      });
    }
  }

  /** GUILD_ROLE_CREATE, just above @everyone unless a position is given. */
  createRole(guildId: string, input: RoleInput & { name: string; premiumSubscriber?: true }): RoleRecord {
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
    if (input.position !== undefined) this.updateRole(guildId, role, { position: input.position });
    return role;
  }

  /** GUILD_ROLE_UPDATE for the role (and for every role a move shifts). */
  updateRole(guildId: string, role: RoleRecord, patch: RoleInput): RoleRecord {
    const guild = this.world.requireGuild(guildId);
    const changed = new Set<RoleRecord>([role]);
    if (patch.name !== undefined) role.name = patch.name;
    if (patch.permissions !== undefined) role.permissions = patch.permissions;
    if (patch.color !== undefined) role.color = patch.color;
    if (patch.mentionable !== undefined) role.mentionable = patch.mentionable;
    if (patch.hoist !== undefined) role.hoist = patch.hoist;
    if (patch.position !== undefined && role.id !== guild.id) {
      const ordered = [...guild.roles.values()].filter((r) => r.id !== guild.id && r.id !== role.id).sort((a, b) => a.position - b.position);
      const target = Math.max(1, Math.min(patch.position, ordered.length + 1));
      ordered.splice(target - 1, 0, role);
      ordered.forEach((r, index) => {
        if (r.position !== index + 1) changed.add(r);
        r.position = index + 1;
      });
    }
    for (const r of changed) this.world.emit(guildId, { t: GatewayDispatchEvents.GuildRoleUpdate, d: { guild_id: guildId, role: presentRole(r) } });
    return role;
  }

  /** GUILD_ROLE_DELETE; members lose it (GUILD_MEMBER_UPDATE each). */
  deleteRole(guildId: string, role: RoleRecord): void {
    const guild = this.world.requireGuild(guildId);
    guild.roles.delete(role.id);
    for (const member of guild.members.values()) {
      if (member.roleIds.includes(role.id))
        this.world.setMemberRoles(
          guildId,
          member.userId,
          member.roleIds.filter((id) => id !== role.id),
        );
    }
    this.world.emit(guildId, { t: GatewayDispatchEvents.GuildRoleDelete, d: { guild_id: guildId, role_id: role.id } });
  }
}

/** Whether a channel type takes messages. */
export function isTextChannel(channel: ChannelRecord): boolean {
  return channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement;
}
