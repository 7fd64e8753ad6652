// Channel webhooks in the sandbox's Discord: incoming webhooks (type 1) a member with Manage
// Webhooks makes in a channel, each with a token anyone holding it may post with. Changes send
// WEBHOOKS_UPDATE (which names only the channel, as on Discord) and leave audit entries.
import { createHash, randomBytes } from 'node:crypto';
import { AuditLogEvent, GatewayDispatchEvents, RESTJSONErrorCodes, WebhookType, type APIAuditLogChange, type APIWebhook } from 'discord-api-types/v10';
import { recordAudit, type ActionContext } from './audit-log';
import { DiscordApiError, invalidFormBody } from './errors';
import { presentUserById } from './presenters';
import type { ChannelRecord } from './types';
import type { WorldState } from './world-state';

/** Webhooks a channel may have (Discord: 15; the next answers 30007). */
export const MAX_WEBHOOKS_PER_CHANNEL = 15;

/** A channel webhook. */
export interface WebhookRecord {
  id: string;
  guildId: string;
  channelId: string;
  name: string;
  /** Avatar hash, or null for the default avatar. */
  avatar: string | null;
  token: string;
  /** Who made it (shown as `user` to those who may manage it). */
  creatorId: string;
  /** The application that made it (a bot's), or null for a member's. */
  applicationId: string | null;
}

/** 401 50027: the webhook exists but the token is not its. */
export const invalidWebhookToken = (): DiscordApiError => new DiscordApiError(401, RESTJSONErrorCodes.InvalidWebhookToken, 'Invalid Webhook Token');

/** Refuses a webhook name (or an execute's `username`) Discord refuses: one containing "clyde" or "discord", whatever the case. */
export function checkWebhookName(field: string, name: string | null | undefined): void {
  if (!name) return;
  const word = ['clyde', 'discord'].find((w) => name.toLowerCase().includes(w));
  if (word) throw invalidFormBody({ [field]: { code: 'USERNAME_INVALID_CONTAINS', message: `Username cannot contain "${word}"` } });
}

/** The hash Discord would give an uploaded avatar (image data) or a proxied avatar URL: stable for the same input. */
export function avatarHash(data: string): string {
  return createHash('md5').update(data).digest('hex');
}

/** Channel webhooks by id; a webhook of a deleted channel is gone with it. */
export class WebhookStore {
  private readonly byId = new Map<string, WebhookRecord>();

  constructor(private readonly world: WorldState) {}

  /** A webhook by id, while its channel exists. */
  get(webhookId: string): WebhookRecord | undefined {
    const webhook = this.byId.get(webhookId);
    if (!webhook) return undefined;
    if (!this.world.guilds.get(webhook.guildId)?.channels.has(webhook.channelId)) {
      this.byId.delete(webhookId);
      return undefined;
    }
    return webhook;
  }

  /** A webhook by id and token: undefined for an unknown id, 50027 for a known id with another token. */
  withToken(webhookId: string, token: string): WebhookRecord | undefined {
    const webhook = this.get(webhookId);
    if (webhook && webhook.token !== token) throw invalidWebhookToken();
    return webhook;
  }

  /** A channel's webhooks, oldest first. */
  inChannel(channelId: string): WebhookRecord[] {
    return [...this.byId.keys()].flatMap((id) => this.get(id) ?? []).filter((w) => w.channelId === channelId);
  }

  /** A guild's webhooks, oldest first. */
  inGuild(guildId: string): WebhookRecord[] {
    return [...this.byId.keys()].flatMap((id) => this.get(id) ?? []).filter((w) => w.guildId === guildId);
  }

  /** Creates an incoming webhook (30007 past 15 in the channel): WEBHOOKS_UPDATE and WEBHOOK_CREATE in the audit log. */
  create(channel: ChannelRecord, input: { name: string; avatar: string | null; creatorId: string }, context: ActionContext = {}): WebhookRecord {
    if (this.inChannel(channel.id).length >= MAX_WEBHOOKS_PER_CHANNEL) {
      throw new DiscordApiError(400, RESTJSONErrorCodes.MaximumNumberOfWebhooksReached, `Maximum number of webhooks reached (${MAX_WEBHOOKS_PER_CHANNEL})`);
    }
    const webhook: WebhookRecord = {
      id: this.world.snowflakes.next(),
      guildId: channel.guildId,
      channelId: channel.id,
      name: input.name,
      avatar: input.avatar,
      token: randomBytes(51).toString('base64url'),
      creatorId: input.creatorId,
      applicationId: input.creatorId === this.world.botUserId ? this.world.applicationId : null,
    };
    this.byId.set(webhook.id, webhook);
    this.announce(webhook);
    const changes = [
      { key: 'name', new_value: webhook.name },
      { key: 'type', new_value: WebhookType.Incoming },
      { key: 'channel_id', new_value: webhook.channelId },
      ...(webhook.avatar ? [{ key: 'avatar_hash', new_value: webhook.avatar }] : []),
    ] as APIAuditLogChange[];
    recordAudit(this.world, webhook.guildId, AuditLogEvent.WebhookCreate, webhook.id, context, changes);
    return webhook;
  }

  /**
   * Renames, re-avatars or moves a webhook (30007 when the new channel is full): WEBHOOKS_UPDATE for
   * its channel (and the one it left), WEBHOOK_UPDATE in the audit log when a member did it.
   */
  update(webhook: WebhookRecord, patch: { name?: string; avatar?: string | null; channel?: ChannelRecord }, context: ActionContext = {}): WebhookRecord {
    const moving = patch.channel && patch.channel.id !== webhook.channelId ? patch.channel : undefined;
    if (moving && this.inChannel(moving.id).length >= MAX_WEBHOOKS_PER_CHANNEL) {
      throw new DiscordApiError(400, RESTJSONErrorCodes.MaximumNumberOfWebhooksReached, `Maximum number of webhooks reached (${MAX_WEBHOOKS_PER_CHANNEL})`);
    }
    const changes: APIAuditLogChange[] = [];
    if (patch.name !== undefined && patch.name !== webhook.name) {
      changes.push({ key: 'name', old_value: webhook.name, new_value: patch.name });
      webhook.name = patch.name;
    }
    if (patch.avatar !== undefined && patch.avatar !== webhook.avatar) {
      changes.push({ key: 'avatar_hash', old_value: webhook.avatar ?? undefined, new_value: patch.avatar ?? undefined } as APIAuditLogChange);
      webhook.avatar = patch.avatar;
    }
    const left = webhook.channelId;
    if (moving) {
      changes.push({ key: 'channel_id', old_value: left, new_value: moving.id });
      webhook.channelId = moving.id;
    }
    this.announce(webhook);
    if (moving) this.world.emit(webhook.guildId, { t: GatewayDispatchEvents.WebhooksUpdate, d: { guild_id: webhook.guildId, channel_id: left } });
    if (context.actorId && changes.length > 0) recordAudit(this.world, webhook.guildId, AuditLogEvent.WebhookUpdate, webhook.id, context, changes);
    return webhook;
  }

  /** Deletes a webhook: WEBHOOKS_UPDATE, and WEBHOOK_DELETE in the audit log when a member did it. */
  delete(webhook: WebhookRecord, context: ActionContext = {}): void {
    this.byId.delete(webhook.id);
    this.announce(webhook);
    if (context.actorId) {
      const changes = [
        { key: 'name', old_value: webhook.name },
        { key: 'type', old_value: WebhookType.Incoming },
        { key: 'channel_id', old_value: webhook.channelId },
      ] as APIAuditLogChange[];
      recordAudit(this.world, webhook.guildId, AuditLogEvent.WebhookDelete, webhook.id, context, changes);
    }
  }

  /**
   * The webhook object: with its token and creator for those who may manage it (bot routes), without
   * the creator for a caller who holds only the token (token routes), as Discord answers.
   */
  present(webhook: WebhookRecord, view: 'manager' | 'token'): APIWebhook {
    return {
      id: webhook.id,
      type: WebhookType.Incoming,
      guild_id: webhook.guildId,
      channel_id: webhook.channelId,
      name: webhook.name,
      avatar: webhook.avatar,
      application_id: webhook.applicationId,
      token: webhook.token,
      ...(view === 'manager' ? { user: presentUserById(this.world, webhook.creatorId) } : {}),
    };
  }

  private announce(webhook: WebhookRecord): void {
    this.world.emit(webhook.guildId, { t: GatewayDispatchEvents.WebhooksUpdate, d: { guild_id: webhook.guildId, channel_id: webhook.channelId } });
  }
}
