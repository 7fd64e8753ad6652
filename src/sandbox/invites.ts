// Guild invites in the sandbox's Discord: codes to a channel, with an age and a use limit that run
// out on the sandbox's clock. Creating and revoking one sends INVITE_CREATE / INVITE_DELETE (the
// GUILD_INVITES intent) and leaves an audit entry, as on Discord.
import { randomInt } from 'node:crypto';
import {
  AuditLogEvent,
  ChannelType,
  GatewayDispatchEvents,
  GuildNSFWLevel,
  GuildVerificationLevel,
  InviteType,
  RESTJSONErrorCodes,
  type APIAuditLogChange,
  type GatewayInviteCreateDispatchData,
} from 'discord-api-types/v10';
import { recordAudit, type ActionContext } from './audit-log';
import { DiscordApiError } from './errors';
import { boostCount } from './presenters-guild';
import { presentUserById } from './presenters';
import type { ChannelRecord, GuildRecord } from './types';
import type { WorldState } from './world-state';

/** Discord's default invite age: 24 hours. */
export const DEFAULT_INVITE_MAX_AGE = 86_400;
/** The longest an expiring invite may last: 7 days (0 never expires). */
export const MAX_INVITE_MAX_AGE = 604_800;

/** An invite to a guild channel. */
export interface InviteRecord {
  code: string;
  guildId: string;
  channelId: string;
  inviterId: string;
  /** Seconds it lasts from creation; 0 = forever. */
  maxAge: number;
  /** Uses it allows; 0 = unlimited. */
  maxUses: number;
  /** Members who join through it are kicked when they go offline unless given a role. */
  temporary: boolean;
  uses: number;
  /** Creation time, in ms on the sandbox clock. */
  createdAt: number;
}

/** What an invite is made with (defaults as Discord's). */
export interface NewInvite {
  inviterId: string;
  maxAge?: number | null;
  maxUses?: number | null;
  temporary?: boolean | null;
  /** False (the default): an existing invite of the same settings by the same inviter is handed back instead. */
  unique?: boolean | null;
}

/** 404 10006: no such invite, or it expired. */
export const unknownInvite = (): DiscordApiError => new DiscordApiError(404, RESTJSONErrorCodes.UnknownInvite, 'Unknown Invite');

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Invites by code; an expired one is gone (10006), as on Discord. */
export class InviteStore {
  private readonly byCode = new Map<string, InviteRecord>();

  constructor(private readonly world: WorldState) {}

  /** A live invite by code (its channel still there, neither expired nor used up). */
  get(code: string): InviteRecord | undefined {
    const invite = this.byCode.get(code);
    if (!invite) return undefined;
    if (!this.isLive(invite)) {
      this.byCode.delete(code);
      return undefined;
    }
    return invite;
  }

  /** A channel's live invites, oldest first. */
  inChannel(channelId: string): InviteRecord[] {
    return this.live().filter((invite) => invite.channelId === channelId);
  }

  /** A guild's live invites, oldest first. */
  inGuild(guildId: string): InviteRecord[] {
    return this.live().filter((invite) => invite.guildId === guildId);
  }

  /**
   * Creates an invite (INVITE_CREATE, INVITE_CREATE in the audit log), or with `unique` false hands
   * back a live one of the same channel, inviter and settings, changing nothing (`created` false).
   */
  create(channel: ChannelRecord, input: NewInvite, context: ActionContext = {}): { invite: InviteRecord; created: boolean } {
    const settings = {
      maxAge: input.maxAge ?? DEFAULT_INVITE_MAX_AGE,
      maxUses: input.maxUses ?? 0,
      temporary: input.temporary ?? false,
    };
    if (!input.unique) {
      const same = this.inChannel(channel.id).find(
        (i) => i.inviterId === input.inviterId && i.maxAge === settings.maxAge && i.maxUses === settings.maxUses && i.temporary === settings.temporary,
      );
      if (same) return { invite: same, created: false };
    }
    const invite: InviteRecord = {
      code: this.newCode(),
      guildId: channel.guildId,
      channelId: channel.id,
      inviterId: input.inviterId,
      ...settings,
      uses: 0,
      createdAt: this.world.clock.ms(),
    };
    this.byCode.set(invite.code, invite);
    this.world.emit(invite.guildId, { t: GatewayDispatchEvents.InviteCreate, d: this.presentCreated(invite) });
    recordAudit(this.world, invite.guildId, AuditLogEvent.InviteCreate, null, context, this.auditChanges(invite, 'new_value'));
    return { invite, created: true };
  }

  /** Revokes an invite: INVITE_DELETE, and INVITE_DELETE in the audit log. */
  delete(invite: InviteRecord, context: ActionContext = {}): void {
    this.byCode.delete(invite.code);
    this.world.emit(invite.guildId, {
      t: GatewayDispatchEvents.InviteDelete,
      d: { channel_id: invite.channelId, guild_id: invite.guildId, code: invite.code },
    });
    recordAudit(this.world, invite.guildId, AuditLogEvent.InviteDelete, null, context, this.auditChanges(invite, 'old_value'));
  }

  /** When an invite runs out (ISO), or null for one that never does. */
  expiresAt(invite: InviteRecord): string | null {
    return invite.maxAge === 0 ? null : new Date(invite.createdAt + invite.maxAge * 1000).toISOString();
  }

  /**
   * The invite object: the guild and channel it leads to; `metadata` adds uses, limits and creation
   * time (for those who manage invites: create and the lists), `counts` the approximate member counts.
   */
  present(invite: InviteRecord, options: { metadata?: boolean; counts?: boolean } = {}) {
    const guild = this.world.requireGuild(invite.guildId);
    const channel = guild.channels.get(invite.channelId);
    return {
      type: InviteType.Guild,
      code: invite.code,
      inviter: presentUserById(this.world, invite.inviterId),
      expires_at: this.expiresAt(invite),
      guild: presentInviteGuild(guild),
      guild_id: guild.id,
      channel: { id: invite.channelId, type: channel?.type ?? ChannelType.GuildText, name: channel?.name ?? null },
      ...(options.metadata
        ? {
            uses: invite.uses,
            max_uses: invite.maxUses,
            max_age: invite.maxAge,
            temporary: invite.temporary,
            created_at: new Date(invite.createdAt).toISOString(),
          }
        : {}),
      ...(options.counts ? { approximate_member_count: guild.members.size, approximate_presence_count: Math.ceil(guild.members.size / 3) } : {}),
    };
  }

  private presentCreated(invite: InviteRecord): GatewayInviteCreateDispatchData {
    return {
      channel_id: invite.channelId,
      code: invite.code,
      created_at: new Date(invite.createdAt).toISOString(),
      guild_id: invite.guildId,
      inviter: presentUserById(this.world, invite.inviterId),
      max_age: invite.maxAge,
      max_uses: invite.maxUses,
      temporary: invite.temporary,
      uses: 0,
      expires_at: this.expiresAt(invite),
    };
  }

  private isLive(invite: InviteRecord): boolean {
    const now = this.world.clock.ms();
    if (invite.maxAge > 0 && now >= invite.createdAt + invite.maxAge * 1000) return false;
    if (invite.maxUses > 0 && invite.uses >= invite.maxUses) return false;
    return this.world.guilds.get(invite.guildId)?.channels.has(invite.channelId) ?? false;
  }

  private live(): InviteRecord[] {
    return [...this.byCode.keys()].flatMap((code) => this.get(code) ?? []);
  }

  /** A fresh code of 8 letters and digits, as Discord's are. */
  private newCode(): string {
    for (;;) {
      let code = '';
      for (let i = 0; i < 8; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      if (!this.byCode.has(code)) return code;
    }
  }

  private auditChanges(invite: InviteRecord, side: 'new_value' | 'old_value'): APIAuditLogChange[] {
    return [
      { key: 'code', [side]: invite.code },
      { key: 'channel_id', [side]: invite.channelId },
      { key: 'inviter_id', [side]: invite.inviterId },
      { key: 'uses', [side]: invite.uses },
      { key: 'max_uses', [side]: invite.maxUses },
      { key: 'max_age', [side]: invite.maxAge },
      { key: 'temporary', [side]: invite.temporary },
      { key: 'flags', [side]: 0 },
    ] as APIAuditLogChange[];
  }
}

/** The guild as an invite shows it to someone not (yet) in it. */
function presentInviteGuild(guild: GuildRecord) {
  return {
    id: guild.id,
    name: guild.name,
    splash: null,
    banner: null,
    description: guild.description,
    icon: guild.icon,
    features: [],
    verification_level: GuildVerificationLevel.Low,
    vanity_url_code: null,
    nsfw_level: GuildNSFWLevel.Default,
    nsfw: false,
    premium_subscription_count: boostCount(guild),
  };
}
